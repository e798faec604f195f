#pragma once
// Whether the thread holding the baton is hung, judged by the thread's own state rather
// than by wall time alone: on a loaded machine a thread that computes may wait seconds for
// a CPU, and was reported hung. A thread that takes no step is hung when it spent the
// limit computing (its CPU time, from /proc) or stayed blocked in the kernel (sleeping
// there, not runnable) for the limit; a runnable thread that gets no CPU is not hung.
#include <sys/types.h>

#include <cstdint>
#include <string_view>

namespace weft::detect {

struct ThreadActivity {
  bool ok = false;           // read (else only wall time can judge)
  char state = '?';          // /proc's: R running or runnable, S, D blocked, ...
  std::uint64_t cpu_ns = 0;  // user and system time so far
  pid_t tid = 0;             // whose (CPU time is per kernel thread)
};

// Parses a /proc/<pid>/task/<tid>/stat line ("tid (comm) S ppid ... utime stime ...": the
// command may hold spaces and parentheses, so fields count from the last ')').
bool parse_thread_stat(std::string_view line, long ticks_per_second, ThreadActivity* out);
// Thread `tid` of process `pid` (0: this process), now; ok false when unreadable.
ThreadActivity read_thread_activity(pid_t pid, pid_t tid);

class StallJudge {
 public:
  explicit StallJudge(std::uint64_t limit_ns) : limit_ns_(limit_ns) {}
  // One sample, a few times a second: the run's step count and the holder's activity.
  // True when the holder has been stalled for the limit (see above).
  bool hung(std::uint64_t now_ns, std::uint64_t steps, const ThreadActivity& a);

 private:
  std::uint64_t limit_ns_;
  std::uint64_t steps_ = ~std::uint64_t{0};
  std::uint64_t since_ns_ = 0;  // the last step
  std::uint64_t cpu_at_step_ = 0;
  pid_t tid_ = 0;                       // whose CPU time cpu_at_step_ is
  std::uint64_t blocked_since_ns_ = 0;  // 0: seen runnable since the last sample
};

}  // namespace weft::detect
