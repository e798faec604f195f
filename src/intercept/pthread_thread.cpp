// Thread lifecycle: create, join, detach, exit, yield, sleep.
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

WEFT_DEFINE_REAL(pthread_create)
WEFT_DEFINE_REAL(pthread_join)
WEFT_DEFINE_REAL(pthread_tryjoin_np)
WEFT_DEFINE_REAL(pthread_timedjoin_np)
WEFT_DEFINE_REAL(pthread_detach)
WEFT_DEFINE_REAL(pthread_setname_np)
WEFT_DEFINE_REAL(pthread_cancel)
WEFT_DEFINE_REAL(pthread_setcancelstate)
WEFT_DEFINE_REAL(pthread_testcancel)
WEFT_DEFINE_REAL(pthread_exit)
WEFT_DEFINE_REAL(sched_yield)
WEFT_DEFINE_REAL(sleep)
WEFT_DEFINE_REAL(usleep)
WEFT_DEFINE_REAL(nanosleep)
WEFT_DEFINE_REAL(clock_nanosleep)

namespace {

int join(ThreadState* self, pthread_t t, void** ret, std::uintptr_t pc, bool try_only) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  ThreadState* target = c.find_thread(t);
  if (target == nullptr) return ESRCH;
  if (target == self) return EDEADLK;
  if (target->detached || target->joined) return EINVAL;
  if (try_only) {
    c.schedule(self, make_op(OpKind::ThreadTryJoin, 0, pc, 0, target->id));
    if (!target->finished) {
      c.mark_last_event(self, kFailed);
      return EBUSY;
    }
  } else {
    c.schedule(self, make_op(OpKind::ThreadJoin, 0, pc, 0, target->id));
    if (self->cancelling()) return ECANCELED;  // cancelled: the caller exits, joining nothing
  }
  c.joined(target);
  if (ret != nullptr) *ret = target->retval;
  return 0;
}

// A sleep is a yield that advances virtual time by what was asked.
void yield(ThreadState* self, OpKind kind, std::uintptr_t pc, std::uint64_t sleep_ns = 0) {
  RuntimeScope scope(self);
  ctl().schedule(self, make_op(kind, 0, pc));
  ctl().sleep_for(sleep_ns);
}

// Sleeps are cancellation points.
void sleep_point(ThreadState* self, std::uintptr_t pc, std::uint64_t ns) {
  cancellation_point(self);
  yield(self, OpKind::Sleep, pc, ns);
  cancellation_point(self);
}

// So are joins (not tryjoin).
int cancellable_join(ThreadState* self, pthread_t t, void** ret, std::uintptr_t pc) {
  cancellation_point(self);
  const int r = join(self, t, ret, pc, false);
  cancellation_point(self);
  return r;
}

std::uint64_t to_ns(const struct timespec* ts) {
  if (ts == nullptr || ts->tv_sec < 0) return 0;
  return static_cast<std::uint64_t>(ts->tv_sec) * 1000000000ull +
         static_cast<std::uint64_t>(ts->tv_nsec);
}

}  // namespace

extern "C" {

int pthread_create(pthread_t* t, const pthread_attr_t* attr, void* (*start)(void*),
                   void* arg) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    return ctl().create_thread(self, t, attr, start, arg, WEFT_PC);
  }
  return real_pthread_create()(t, attr, start, arg);
}

int pthread_join(pthread_t t, void** ret) {
  if (ThreadState* self = rt::controlled_thread()) return cancellable_join(self, t, ret, WEFT_PC);
  return real_pthread_join()(t, ret);
}

int pthread_tryjoin_np(pthread_t t, void** ret) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return join(self, t, ret, WEFT_PC, true);
  return real_pthread_tryjoin_np()(t, ret);
}

int pthread_timedjoin_np(pthread_t t, void** ret, const struct timespec* abstime) {
  // A timed join that would time out only when nothing else can run is a join.
  if (ThreadState* self = rt::controlled_thread()) return cancellable_join(self, t, ret, WEFT_PC);
  return real_pthread_timedjoin_np()(t, ret, abstime);
}

int pthread_detach(pthread_t t) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ThreadState* target = ctl().find_thread(t);
    if (target == nullptr) return ESRCH;
    if (target->detached) return EINVAL;
    ctl().schedule(self, make_op(OpKind::ThreadDetach, 0, WEFT_PC, 0, target->id));
    target->detached = true;
    return 0;
  }
  return real_pthread_detach()(t);
}

// Deferred cancellation, modelled: the request is a step (dependent with every step of its
// target), and the target acts on it at its next cancellation point weft models (condition
// and semaphore waits, joins, sleeps, pthread_testcancel), waking from such a wait to do
// so. The real pthread_cancel is never called on a controlled thread: its signal would
// reach whatever carrier runs it. Asynchronous cancellation is taken as deferred.
int pthread_cancel(pthread_t t) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    ThreadState* target = c.find_thread(t);
    if (target == nullptr) return ESRCH;
    c.schedule(self, make_op(OpKind::ThreadCancel, 0, WEFT_PC, 0, target->id));
    if (!target->finished) target->cancel_pending = true;
    return 0;
  }
  return real_pthread_cancel()(t);
}

int pthread_setcancelstate(int state, int* old) {
  if (ThreadState* self = rt::controlled_thread()) {
    if (state != PTHREAD_CANCEL_ENABLE && state != PTHREAD_CANCEL_DISABLE) return EINVAL;
    if (old != nullptr)
      *old = self->cancel_disabled ? PTHREAD_CANCEL_DISABLE : PTHREAD_CANCEL_ENABLE;
    self->cancel_disabled = state == PTHREAD_CANCEL_DISABLE;
    return 0;
  }
  return real_pthread_setcancelstate()(state, old);
}

void pthread_testcancel() {
  if (ThreadState* self = rt::controlled_thread()) {
    // A step only when there is something to act on: otherwise a loop that tests for
    // cancellation would gain a scheduling point per round for nothing.
    if (self->cancelling()) {
      yield(self, OpKind::Yield, WEFT_PC);
      cancellation_point(self);
    }
    return;
  }
  real_pthread_testcancel()();
}

// Not a scheduling point: the name labels the thread in reports. The name is its kernel
// thread's: the thread runs only there from now on (runtime/fiber.hpp).
int pthread_setname_np(pthread_t t, const char* name) noexcept {
  ThreadState* self = rt::controlled_thread();
  if (self != nullptr) {
    RuntimeScope scope(self);
    if (ThreadState* target = ctl().find_thread(t)) ctl().pin(target);
  }
  const int r = real_pthread_setname_np()(t, name);
  if (self != nullptr && r == 0) {
    RuntimeScope scope(self);
    if (ThreadState* target = ctl().find_thread(t)) {
      ctl().thread_named(*target, name);
      if (target->carrier != nullptr) target->carrier->renamed = true;
    }
  }
  return r;
}

void pthread_exit(void* ret) {
  if (ThreadState* self = rt::controlled_thread()) {
    self->retval = ret;
    // Its kernel thread ends with it: it must run there (runtime/fiber.hpp).
    {
      RuntimeScope scope(self);
      ctl().pin(self);
    }
    // A process's main thread has no weft entry frame to finish it on the way out.
    if (self->adopted) ctl().finish_adopted_thread(self);
  }
  // The unwind passes through the thread's entry, which finishes it under control.
  real_pthread_exit()(ret);
  __builtin_unreachable();
}

int sched_yield() noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    yield(self, OpKind::Yield, WEFT_PC);
    return 0;
  }
  return real_sched_yield()();
}

// Sleeping threads yield instead of sleeping: time under weft is the schedule's.
unsigned int sleep(unsigned int seconds) {
  if (ThreadState* self = rt::controlled_thread()) {
    sleep_point(self, WEFT_PC, seconds * 1000000000ull);
    return 0;
  }
  return real_sleep()(seconds);
}

int usleep(useconds_t usec) {
  if (ThreadState* self = rt::controlled_thread()) {
    sleep_point(self, WEFT_PC, usec * 1000ull);
    return 0;
  }
  return real_usleep()(usec);
}

int nanosleep(const struct timespec* req, struct timespec* rem) {
  if (ThreadState* self = rt::controlled_thread()) {
    sleep_point(self, WEFT_PC, to_ns(req));
    if (rem != nullptr) *rem = timespec{0, 0};
    return 0;
  }
  return real_nanosleep()(req, rem);
}

int clock_nanosleep(clockid_t clock, int flags, const struct timespec* req, struct timespec* rem) {
  if (ThreadState* self = rt::controlled_thread()) {
    std::uint64_t ns = to_ns(req);
    if (flags & TIMER_ABSTIME) {  // until a virtual instant
      struct timespec now;
      const std::uint64_t at =
          rt::VirtualClock::read(clock, ctl().virtual_ns(), &now) ? to_ns(&now) : ns;
      ns = ns > at ? ns - at : 0;
    }
    sleep_point(self, WEFT_PC, ns);
    if (rem != nullptr) *rem = timespec{0, 0};
    return 0;
  }
  return real_clock_nanosleep()(clock, flags, req, rem);
}

}  // extern "C"
