// Condition variables (std::condition_variable and _any reach these).
#include <errno.h>
#include <pthread.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::Deadline;

WEFT_DEFINE_REAL(pthread_cond_wait)
WEFT_DEFINE_REAL(pthread_cond_timedwait)
WEFT_DEFINE_REAL(pthread_cond_clockwait)
WEFT_DEFINE_REAL(pthread_cond_signal)
WEFT_DEFINE_REAL(pthread_cond_broadcast)
WEFT_DEFINE_REAL(pthread_cond_destroy)

namespace {

// The clock of pthread_cond_timedwait's deadline: CLOCK_REALTIME unless the condition
// variable was made with pthread_condattr_setclock(CLOCK_MONOTONIC), which glibc records
// in bit 1 of __wrefs (weft never waits on the real object, so nothing else changes it).
clockid_t clock_of(const pthread_cond_t* cv) {
  return (cv->__data.__wrefs & 2) != 0 ? CLOCK_MONOTONIC : CLOCK_REALTIME;
}

// Two steps: release the mutex and start waiting (CondWait), then, once signalled (or
// timed out) and the mutex is free, reacquire it (CondWake).
int wait(ThreadState* self, pthread_cond_t* cv, pthread_mutex_t* m, std::uintptr_t pc,
         const Deadline& deadline) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const std::uintptr_t ca = addr(cv), ma = addr(m);
  Op wait_op = make_op(OpKind::CondWait, ca, pc);
  set_cond_mutex(wait_op, ma);
  c.schedule(self, wait_op);
  if (c.mutexes.owner(ma) != self->id) {
    check_cond_wait_mutex(self, m, pc);
    return EPERM;
  }
  const unsigned depth = c.mutexes.release_all(ma);
  c.waits.add(ca, self);
  self->wait_mutex = ma;
  Op wake_op = make_op(OpKind::CondWake, ca, pc);
  set_cond_mutex(wake_op, ma);
  const bool timed_out = c.schedule_wait(self, wake_op, deadline);
  // Timed out, or cancelled before anyone woke it: no longer waiting.
  if (timed_out || !self->woken) c.waits.remove(ca, self);
  for (unsigned i = 0; i < depth; ++i) c.mutexes.lock(ma, self->id);
  return timed_out ? ETIMEDOUT : 0;
}

// The waits are cancellation points, on entry and while waiting (then with the mutex
// reacquired, as POSIX says, for the cleanup handlers).
int cancellable_wait(ThreadState* self, pthread_cond_t* cv, pthread_mutex_t* m, std::uintptr_t pc,
                     const Deadline& deadline) {
  cancellation_point(self);
  const int r = wait(self, cv, m, pc, deadline);
  cancellation_point(self);
  return r;
}

int signal(ThreadState* self, pthread_cond_t* cv, std::uintptr_t pc, bool all) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const std::uintptr_t ca = addr(cv);
  c.schedule(self, make_op(all ? OpKind::CondBroadcast : OpKind::CondSignal, ca, pc));
  if (all) {
    c.waits.wake_all(ca);
  } else if (std::size_t n = c.waits.waiters(ca); n > 0) {
    c.waits.wake_one(ca, c.choose_value(n));  // which waiter wakes is the strategy's choice
  }
  return 0;
}

}  // namespace

extern "C" {

int pthread_cond_wait(pthread_cond_t* cv, pthread_mutex_t* m) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_wait(self, cv, m, WEFT_PC, Deadline::never());
  return real_pthread_cond_wait()(cv, m);
}

int pthread_cond_timedwait(pthread_cond_t* cv, pthread_mutex_t* m, const struct timespec* abstime) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_wait(self, cv, m, WEFT_PC, Deadline::at(clock_of(cv), abstime));
  return real_pthread_cond_timedwait()(cv, m, abstime);
}

int pthread_cond_clockwait(pthread_cond_t* cv, pthread_mutex_t* m, clockid_t clock,
                           const struct timespec* abstime) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_wait(self, cv, m, WEFT_PC, Deadline::at(clock, abstime));
  return real_pthread_cond_clockwait()(cv, m, clock, abstime);
}

int pthread_cond_signal(pthread_cond_t* cv) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return signal(self, cv, WEFT_PC, false);
  return real_pthread_cond_signal()(cv);
}

int pthread_cond_broadcast(pthread_cond_t* cv) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return signal(self, cv, WEFT_PC, true);
  return real_pthread_cond_broadcast()(cv);
}

// Undefined while a thread waits on it (or is inside pthread_cond_wait, not yet waiting);
// waiters already woken, on their way out, are allowed (a broadcast, then a destroy).
int pthread_cond_destroy(pthread_cond_t* cv) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    const std::uintptr_t ca = addr(cv);
    check_no_waiters(self,
                     ctl().waiters(self,
                                   [ca](const ThreadState& t) {
                                     return t.pending.object == ca &&
                                            (t.pending.kind == OpKind::CondWait ||
                                             (t.pending.kind == OpKind::CondWake && !t.woken));
                                   }),
                     ca, Misuse::Object::kCondition, "pthread_cond_destroy of a condition variable",
                     WEFT_PC);
  }
  return real_pthread_cond_destroy()(cv);
}

}  // extern "C"
