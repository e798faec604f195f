// syscall(SYS_futex, ...): what C++20 atomic wait/notify, std::latch, std::barrier,
// std::counting_semaphore and function-local statics (__cxa_guard_*) block with. And the
// id system calls, whose ids are virtual in an execution (runtime/virtual_ids.hpp).
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <string>

#include "intercept/real.hpp"
#include "runtime/virtual_ids.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(syscall)

namespace {

// FUTEX_WAIT's timeout is relative, on the monotonic clock; FUTEX_WAIT_BITSET's is absolute,
// on the monotonic clock unless FUTEX_CLOCK_REALTIME.
rt::Deadline deadline(const Controller& c, const long* a) {
  const auto* timeout = reinterpret_cast<const struct timespec*>(a[3]);
  if (timeout == nullptr) return rt::Deadline::never();
  if ((a[1] & FUTEX_CMD_MASK) == FUTEX_WAIT)
    return c.deadline_after(static_cast<std::uint64_t>(timeout->tv_sec) * 1000000000 +
                            static_cast<std::uint64_t>(timeout->tv_nsec));
  return rt::Deadline::at((a[1] & FUTEX_CLOCK_REALTIME) != 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC,
                          timeout);
}

std::string futex_command(int cmd) {
  switch (cmd) {
    case FUTEX_REQUEUE: return "FUTEX_REQUEUE";
    case FUTEX_CMP_REQUEUE: return "FUTEX_CMP_REQUEUE";
    case FUTEX_WAKE_OP: return "FUTEX_WAKE_OP";
    case FUTEX_LOCK_PI: return "FUTEX_LOCK_PI";
    case FUTEX_UNLOCK_PI: return "FUTEX_UNLOCK_PI";
    case FUTEX_TRYLOCK_PI: return "FUTEX_TRYLOCK_PI";
    case FUTEX_WAIT_REQUEUE_PI: return "FUTEX_WAIT_REQUEUE_PI";
    case FUTEX_CMP_REQUEUE_PI: return "FUTEX_CMP_REQUEUE_PI";
    default: return "operation " + std::to_string(cmd);
  }
}

long futex(ThreadState* self, long* a, std::uintptr_t pc) {
  const auto* word = reinterpret_cast<const std::uint32_t*>(a[0]);
  const int cmd = static_cast<int>(a[1]) & FUTEX_CMD_MASK;
  const auto val = static_cast<std::uint32_t>(a[2]);
  RuntimeScope scope(self);
  Controller& c = ctl();
  switch (cmd) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET: {
      c.schedule(self, make_op(OpKind::FutexWait, addr(word), pc, 4));
      // The comparison and the decision to sleep are one step, as in the kernel.
      if (__atomic_load_n(word, __ATOMIC_SEQ_CST) != val) {
        errno = EAGAIN;
        return -1;
      }
      c.waits.add(addr(word), self);
      if (c.schedule_wait(self, make_op(OpKind::FutexWoken, addr(word), pc, 4), deadline(c, a))) {
        c.waits.remove(addr(word), self);
        errno = ETIMEDOUT;
        return -1;
      }
      return 0;
    }
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET: {
      c.schedule(self, make_op(OpKind::FutexWake, addr(word), pc, 4));
      long woken = 0;
      if (val >= static_cast<std::uint32_t>(INT_MAX))
        return static_cast<long>(c.waits.wake_all(addr(word)));
      for (std::uint32_t i = 0; i < val; ++i) {
        std::size_t n = c.waits.waiters(addr(word));
        if (n == 0) break;
        c.waits.wake_one(addr(word), c.choose_value(n));
        ++woken;
      }
      return woken;
    }
    default:
      // Requeue, wake-op, PI futexes...: not modelled. Run for real, such a call would
      // block or wake behind weft's back.
      outside_control(self, pc, "syscall(SYS_futex, " + futex_command(cmd) + ")",
                      "weft models FUTEX_WAIT, FUTEX_WAIT_BITSET, FUTEX_WAKE and "
                      "FUTEX_WAKE_BITSET only");
  }
}

// A raw system call that starts a process or a thread: as fork() and clone() are, outside
// what weft controls, said at the call.
[[noreturn]] void raw_child(ThreadState* self, const char* call, std::uintptr_t pc) {
  outside_control(self, pc, std::string("syscall(") + call + ")",
                  "child processes and threads not made with pthread_create are outside what "
                  "weft controls");
}

}  // namespace

extern "C" long syscall(long number, ...) noexcept {
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (long& x : a) x = va_arg(ap, long);
  va_end(ap);
  using rt::VirtualIds;
  switch (number) {
    case SYS_futex:
      if (ThreadState* self = rt::controlled_thread()) return futex(self, a, WEFT_PC);
      break;
    case SYS_fork:
    case SYS_vfork:
    case SYS_clone:
    case SYS_clone3:
      if (ThreadState* self = rt::controlled_thread())
        raw_child(self,
                  number == SYS_fork    ? "SYS_fork"
                  : number == SYS_vfork ? "SYS_vfork"
                  : number == SYS_clone ? "SYS_clone"
                                        : "SYS_clone3",
                  WEFT_PC);
      break;
    case SYS_getpid: return VirtualIds::pid();
    case SYS_gettid: return VirtualIds::tid();
    case SYS_kill:
    case SYS_rt_sigqueueinfo: a[0] = VirtualIds::real_pid(static_cast<pid_t>(a[0])); break;
    case SYS_tkill: a[0] = VirtualIds::real_tid(static_cast<pid_t>(a[0])); break;
    case SYS_tgkill:
      a[0] = VirtualIds::real_pid(static_cast<pid_t>(a[0]));
      a[1] = VirtualIds::real_tid(static_cast<pid_t>(a[1]));
      break;
    default: break;
  }
  return real_syscall()(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
