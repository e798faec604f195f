#include "cli/worker_processes.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <thread>

#include "cli/command_support.hpp"
#include "core/jobs_layout.hpp"

namespace weft::cli {
namespace {

namespace fs = std::filesystem;

// The workers, kept where a signal handler can read them.
struct Workers {
  static constexpr int kMost = 256;  // --jobs' most
  pid_t pid[kMost] = {};
  std::atomic<bool> reaped[kMost] = {};
  std::atomic<int> count{0};
  bool groups = true;  // each leads a process group (not gdb)
};
Workers g_workers;
std::atomic<int> g_stop_signal{0};  // the first SIGINT or SIGTERM weft got; 0 none
std::atomic<int> g_stops{0};        // how many it got

void on_stop_signal(int sig) {
  const bool first = g_stops.fetch_add(1) == 0;
  if (first) g_stop_signal = sig;
  const char* said = sig == SIGINT ? "weft: SIGINT: ending the search (again: stop at once)\n"
                                   : "weft: SIGTERM: ending the search (again: stop at once)\n";
  if (first && write(STDERR_FILENO, said, std::strlen(said)) < 0) {
  }
  for (int j = 0; j < g_workers.count; ++j) {
    if (g_workers.reaped[j]) continue;
    const pid_t p = g_workers.pid[j];
    if (first)
      kill(p, sig);  // a fork server ends its search; gdb quits
    else if (!g_workers.groups || kill(-p, SIGKILL) != 0)
      kill(p, SIGKILL);
  }
}

void worker_reaped(pid_t pid) {
  for (int j = 0; j < g_workers.count; ++j)
    if (g_workers.pid[j] == pid) g_workers.reaped[j] = true;
}

// Waits for the instance's program (or only looks, unless `block`), then kills what is
// left of its process group: nothing of the run may outlive it. Whether it has ended.
bool reap(Instance& in, bool block) {
  if (in.reaped) return true;
  pid_t r;
  while ((r = waitpid(in.pid, &in.status, block ? 0 : WNOHANG)) < 0 && errno == EINTR) {
  }
  if (r != in.pid) return false;
  worker_reaped(in.pid);
  if (in.group) kill(-in.pid, SIGKILL);
  in.reaped = true;
  return true;
}

}  // namespace

void catch_stop_signals(bool gdb) {
  struct sigaction sa {};
  sa.sa_handler = &on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a wait returns, to see a second signal
  sigaction(SIGTERM, &sa, nullptr);
  if (gdb) sa.sa_handler = SIG_IGN;
  sigaction(SIGINT, &sa, nullptr);
}

int stop_signal() { return g_stop_signal; }
int stops() { return g_stops; }
int status_of(int code) { return g_stop_signal != 0 ? 128 + g_stop_signal : code; }

void workers_lead_groups(bool groups) { g_workers.groups = groups; }

void add_worker(pid_t pid) {
  const int j = g_workers.count;
  g_workers.pid[j] = pid;
  g_workers.count = j + 1;
  if (const int sig = g_stop_signal; sig != 0) kill(pid, sig);
}

void kill_workers() {
  for (int k = 0; k < g_workers.count; ++k)
    kill(g_workers.groups ? -g_workers.pid[k] : g_workers.pid[k], SIGKILL);
}

pid_t spawn(const std::vector<std::string>& env, const std::vector<std::string>& argv,
            bool own_group, bool fixed_layout, int lifeline) {
  std::fflush(nullptr);
  sigset_t stops, before;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  // Blocked around fork: weft's handler must not run in the child.
  sigprocmask(SIG_BLOCK, &stops, &before);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0 && own_group) setpgid(pid, pid);
    sigprocmask(SIG_SETMASK, &before, nullptr);
    return pid;
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // weft died before the line above
  if (own_group) setpgid(0, 0);
  if (!own_group) {  // gdb: its signals are its own
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &before, nullptr);
  }
  if (lifeline >= 0) fcntl(lifeline, F_SETFD, 0);
  if (fixed_layout) {
    const int now = personality(0xffffffff);
    if (now != -1) personality(static_cast<unsigned long>(now) | ADDR_NO_RANDOMIZE);
  }
  for (const std::string& e : env) putenv(strdup(e.c_str()));
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  // argv[0] is a path already: execv, not execvp, whose fallback would hand a file the
  // kernel refuses to /bin/sh.
  execv(cargv[0], cargv.data());
  std::fprintf(stderr, "weft: cannot execute %s: %s\n", cargv[0], std::strerror(errno));
  _exit(127);
}

std::string collect(Instance& in) {
  std::error_code ec;
  if (!fs::exists(in.results / "result.json", ec)) {
    if (WIFEXITED(in.status) && WEXITSTATUS(in.status) == 127) return "-";  // said already
    if (WIFSIGNALED(in.status) && WTERMSIG(in.status) == SIGKILL)
      return "the program's process (weft's fork server) was killed (signal 9) before it "
             "wrote a result";
    return "the program ended without weft taking control (is it statically linked, or "
           "does it clear LD_PRELOAD?); exit status " +
           std::to_string(WIFEXITED(in.status) ? WEXITSTATUS(in.status)
                                               : 128 + WTERMSIG(in.status));
  }
  // The fork server writes it last, whole (renamed into place once written).
  in.json = read_file(in.results / "result.json");
  in.report = read_file(in.results / "report.txt");
  in.output = read_file(in.results / "output.txt");
  in.found = read_file(in.results / "schedule.txt");
  in.error = read_file(in.results / "error.txt");
  in.trace = ResultFile(in.results / "trace.json");
  in.page = ResultFile(in.results / "report.html");
  return "";
}

std::string ControlFile::make(const fs::path& path, std::size_t workers) {
  bytes_ = weft::JobsLayout::file_bytes(workers);
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes_)) != 0) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) close(fd);
    return "cannot make " + path.string() + ": " + why;
  }
  void* map = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return "cannot map " + path.string() + ": " + std::strerror(errno);
  words_ = static_cast<std::atomic<std::uint64_t>*>(map);
  team_ = reinterpret_cast<std::atomic<std::uint64_t>*>(static_cast<char*>(map) +
                                                        weft::JobsLayout::kTeamOffset);
  words_[weft::JobsLayout::kFirstBug].store(weft::JobsLayout::kNoBug);
  team_[weft::JobsLayout::kBarrier].store(weft::JobsLayout::barrier(0, workers, 0));
  return "";
}
ControlFile::~ControlFile() {
  if (words_ != nullptr) munmap(words_, bytes_);
}

void ControlFile::release_team(const std::vector<Instance>& instances) {
  if (team_ == nullptr) return;
  bool abort = false;
  for (std::size_t j = 0; j < instances.size(); ++j)
    abort |= instances[j].reaped &&
             team_[weft::JobsLayout::slot(j) + weft::JobsLayout::kDeparted].load() == 0;
  if (abort && team_[weft::JobsLayout::kAbort].exchange(1) == 0)
    syscall(SYS_futex, weft::JobsLayout::generation_word(team_[weft::JobsLayout::kBarrier]),
            FUTEX_WAKE, INT_MAX, nullptr, nullptr, 0);
}
void wait_for_workers(std::vector<Instance>& instances, ControlFile& control) {
  if (instances.size() == 1) {
    reap(instances[0], true);
    return;
  }
  for (;;) {
    std::size_t running = 0;
    for (Instance& in : instances) running += !reap(in, false);
    if (running == 0) return;
    control.release_team(instances);
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, 0)) < 0 && errno == EINTR) {
    }
    if (pid < 0) return;
    worker_reaped(pid);
    for (Instance& in : instances)
      if (in.pid == pid && !in.reaped) {
        in.status = status;
        in.reaped = true;
        if (in.group) kill(-in.pid, SIGKILL);
      }
  }
}

void wait_with_progress(std::vector<Instance>& instances, ControlFile& control) {
  const std::atomic<std::uint64_t>* w = control.words();
  const auto start = std::chrono::steady_clock::now();
  bool shown = false;
  for (;;) {
    std::size_t running = 0;
    for (Instance& in : instances) running += !reap(in, false);
    if (running == 0 || w == nullptr) break;
    control.release_team(instances);
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    std::uint64_t executions = 0, bugs = 0;
    for (std::size_t j = 0; j < instances.size(); ++j) {
      executions += w[weft::JobsLayout::executions(j)].load(std::memory_order_relaxed);
      bugs += w[weft::JobsLayout::bugs(j)].load(std::memory_order_relaxed);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char line[160];
    std::snprintf(
        line, sizeof line,
        "\r\033[Kweft: %llu executions, %llu/s, %zu of %zu workers running, %llu %s, %.1f s",
        static_cast<unsigned long long>(executions),
        static_cast<unsigned long long>(executions / std::max(seconds, 1e-3)), running,
        instances.size(), static_cast<unsigned long long>(bugs), bugs == 1 ? "bug" : "bugs",
        seconds);
    shown = write(STDERR_FILENO, line, std::strlen(line)) > 0;
  }
  if (shown && write(STDERR_FILENO, "\r\033[K", 4) < 0) {
  }
}

}  // namespace weft::cli
