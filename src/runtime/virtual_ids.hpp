#pragma once
// Process and thread ids under weft are the schedule's, like time (CHESS section 3.1):
// each execution is a new process, so the kernel's ids differ from one execution (and
// from one `weft replay`) to the next, and a program that prints, hashes or branches on
// them would not be a function of its schedule. In an execution, getpid() is kPid in
// every execution, and a controlled thread's gettid() is kPid plus its thread number
// (the main thread's is kPid, as on Linux). kPid is above any id Linux hands out
// (pid_max is at most 2^22), so no real process or thread has one of these ids: the
// calls that take an id (kill, sigqueue, tgkill, tkill) turn them back into the real ones.
#include <sys/types.h>

namespace weft::rt {

struct VirtualIds {
  static constexpr pid_t kPid = 5000000;
  // On in the process that runs executions (the fork server's child, the in-process
  // explorer's child); off everywhere else, where ids are the kernel's.
  static bool enabled;
  // What getpid() and gettid() return to the calling thread.
  static pid_t pid();
  static pid_t tid();
  // An id the program passes to the kernel: a virtual one becomes the real one (a
  // thread's only while it runs), any other is left as it is.
  static pid_t real_pid(pid_t pid);
  static pid_t real_tid(pid_t tid);
};

}  // namespace weft::rt
