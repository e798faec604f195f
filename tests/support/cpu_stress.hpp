#pragma once
// A saturated machine for the tests that must hold on one (a CI runner's normal state):
// `per_cpu` x nproc busy processes, for at most `most_s` seconds, stopped when the object
// goes. Self-cleaning: each dies with its parent (PR_SET_PDEATHSIG) and by its own alarm,
// so a crashed or killed test leaves none behind.
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace weft::test {

class CpuStress {
 public:
  explicit CpuStress(unsigned per_cpu = 4, unsigned most_s = 1800) {
    const unsigned n = per_cpu * std::max(1u, std::thread::hardware_concurrency());
    const pid_t parent = getpid();
    for (unsigned i = 0; i < n; ++i) {
      const pid_t pid = fork();
      if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(0);  // the parent went before the line above
        alarm(most_s);
        for (volatile std::uint64_t spin = 0;; spin = spin + 1) {
        }
      }
      if (pid > 0) pids_.push_back(pid);
    }
  }
  CpuStress(const CpuStress&) = delete;
  CpuStress& operator=(const CpuStress&) = delete;
  ~CpuStress() { stop(); }

  std::size_t processes() const { return pids_.size(); }

  // The CPU seconds the busy processes have had so far: the proof they were busy.
  double cpu_seconds() const {
    double total = 0;
    const long ticks = sysconf(_SC_CLK_TCK);
    for (pid_t pid : pids_) {
      std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
      std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      const std::size_t close = stat.rfind(')');
      if (close == std::string::npos) continue;
      std::istringstream fields(stat.substr(close + 2));
      std::string field;
      std::uint64_t utime = 0, stime = 0;
      for (int i = 3; i <= 15 && fields >> field; ++i) {  // fields 14, 15: utime, stime
        if (i == 14) utime = std::stoull(field);
        if (i == 15) stime = std::stoull(field);
      }
      total += static_cast<double>(utime + stime) / static_cast<double>(ticks);
    }
    return total;
  }

  void stop() {
    for (pid_t pid : pids_) kill(pid, SIGKILL);
    for (pid_t pid : pids_) waitpid(pid, nullptr, 0);
    pids_.clear();
  }

 private:
  std::vector<pid_t> pids_;
};

}  // namespace weft::test
