#include "detect/stall_judge.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace weft::detect {

bool parse_thread_stat(std::string_view line, long ticks_per_second, ThreadActivity* out) {
  const std::size_t close = line.rfind(')');
  if (close == std::string_view::npos || close + 2 >= line.size() || ticks_per_second <= 0)
    return false;
  // After ") ": field 3 (state), then fields 4.. separated by single spaces.
  std::string_view rest = line.substr(close + 2);
  const char state = rest[0];
  std::uint64_t utime = 0, stime = 0;
  int field = 3;
  for (std::size_t i = 0; i < rest.size() && field <= 15; ++field) {
    const std::size_t end = std::min(rest.find(' ', i), rest.size());
    const std::string_view text = rest.substr(i, end - i);
    if (field == 14 || field == 15) {
      std::uint64_t v = 0;
      for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + static_cast<std::uint64_t>(c - '0');
      }
      (field == 14 ? utime : stime) = v;
    }
    i = end + 1;
  }
  if (field <= 15) return false;
  out->ok = true;
  out->state = state;
  out->cpu_ns = (utime + stime) * (1000000000ull / static_cast<std::uint64_t>(ticks_per_second));
  return true;
}

ThreadActivity read_thread_activity(pid_t pid, pid_t tid) {
  ThreadActivity a;
  char path[64];
  if (pid == 0)
    std::snprintf(path, sizeof path, "/proc/self/task/%d/stat", static_cast<int>(tid));
  else
    std::snprintf(path, sizeof path, "/proc/%d/task/%d/stat", static_cast<int>(pid),
                  static_cast<int>(tid));
  // open/read, not stdio: the in-process watchdog must not allocate or lock.
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return a;
  char buf[1024];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return a;
  static const long ticks = sysconf(_SC_CLK_TCK);
  parse_thread_stat(std::string_view(buf, static_cast<std::size_t>(n)), ticks, &a);
  a.tid = tid;
  return a;
}

bool StallJudge::hung(std::uint64_t now_ns, std::uint64_t steps, const ThreadActivity& a) {
  if (steps != steps_) {
    steps_ = steps;
    since_ns_ = now_ns;
    cpu_at_step_ = a.cpu_ns;
    tid_ = a.tid;
    blocked_since_ns_ = 0;
    return false;
  }
  if (!a.ok) return now_ns - since_ns_ >= limit_ns_;  // no /proc: wall time is all there is
  // A baseline taken from no reading (a caller may read /proc only once a stall begins),
  // or from the kernel thread that ran before (the step count and the holder are read
  // apart), is taken again from this one.
  if (a.tid != tid_ || a.cpu_ns < cpu_at_step_) {
    tid_ = a.tid;
    cpu_at_step_ = a.cpu_ns;
  }
  if (a.state == 'R') {
    blocked_since_ns_ = 0;
    // Computing: its own CPU time counts, not the time it waited for a CPU.
    return a.cpu_ns - cpu_at_step_ >= limit_ns_;
  }
  if (blocked_since_ns_ == 0) blocked_since_ns_ = now_ns;
  return now_ns - blocked_since_ns_ >= limit_ns_ || a.cpu_ns - cpu_at_step_ >= limit_ns_;
}

}  // namespace weft::detect
