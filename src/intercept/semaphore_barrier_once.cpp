// POSIX semaphores, barriers and pthread_once (std::call_once reaches pthread_once).
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include <cstring>

#include "intercept/real.hpp"
#include "runtime/instrumented_code.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::Deadline;
using rt::OnceModel;

WEFT_DEFINE_REAL(sem_init)
WEFT_DEFINE_REAL(sem_destroy)
WEFT_DEFINE_REAL(sem_wait)
WEFT_DEFINE_REAL(sem_trywait)
WEFT_DEFINE_REAL(sem_timedwait)
WEFT_DEFINE_REAL(sem_clockwait)
WEFT_DEFINE_REAL(sem_post)
WEFT_DEFINE_REAL(sem_getvalue)
WEFT_DEFINE_REAL(pthread_barrier_init)
WEFT_DEFINE_REAL(pthread_barrier_wait)
WEFT_DEFINE_REAL(pthread_barrier_destroy)
WEFT_DEFINE_REAL(pthread_once)

namespace {

// A semaphore first seen under test starts from the value its real object holds (it was
// initialised before the exploration, or re-read each execution: weft never changes it).
void learn_semaphore(Controller& c, sem_t* s) {
  if (c.semaphores.known(addr(s))) return;
  int value = 0;
  real_sem_getvalue()(s, &value);
  c.semaphores.init(addr(s), value < 0 ? 0 : static_cast<unsigned>(value));
}

int sem_wait_impl(ThreadState* self, sem_t* s, std::uintptr_t pc, const Deadline& deadline) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  learn_semaphore(c, s);
  if (c.schedule_wait(self, make_op(OpKind::SemWait, addr(s), pc), deadline)) {
    errno = ETIMEDOUT;
    return -1;
  }
  if (self->cancelling()) return -1;  // cancelled: the caller exits, taking nothing
  c.semaphores.wait(addr(s));
  return 0;
}

// sem_wait and its timed forms are cancellation points.
int cancellable_sem_wait(ThreadState* self, sem_t* s, std::uintptr_t pc, const Deadline& deadline) {
  cancellation_point(self);
  const int r = sem_wait_impl(self, s, pc, deadline);
  cancellation_point(self);
  return r;
}

// Barrier layout in glibc: {in, current_round, count, shared, out}; count is read when a
// barrier initialised outside the test is first used.
unsigned barrier_count(const pthread_barrier_t* b) {
  unsigned words[3];
  std::memcpy(words, b, sizeof words);
  return words[2] == 0 ? 1 : words[2];
}

}  // namespace

extern "C" {

int sem_init(sem_t* s, int pshared, unsigned int value) noexcept {
  int rc = real_sem_init()(s, pshared, value);
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && rc == 0) {
    RuntimeScope scope(self);
    ctl().semaphores.init(addr(s), value);
  }
  return rc;
}

// Undefined while a thread is blocked in sem_wait on it (or inside it, about to take).
int sem_destroy(sem_t* s) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    const std::uintptr_t a = addr(s);
    check_no_waiters(self,
                     ctl().waiters(self,
                                   [a](const ThreadState& t) {
                                     return t.pending.kind == OpKind::SemWait &&
                                            t.pending.object == a;
                                   }),
                     a, Misuse::Object::kSemaphore, "sem_destroy of a semaphore", WEFT_PC);
  }
  return real_sem_destroy()(s);
}

int sem_wait(sem_t* s) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_sem_wait(self, s, WEFT_PC, Deadline::never());
  return real_sem_wait()(s);
}

int sem_timedwait(sem_t* s, const struct timespec* t) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_sem_wait(self, s, WEFT_PC, Deadline::at(CLOCK_REALTIME, t));
  return real_sem_timedwait()(s, t);
}

int sem_clockwait(sem_t* s, clockid_t clock, const struct timespec* t) {
  if (ThreadState* self = rt::controlled_thread())
    return cancellable_sem_wait(self, s, WEFT_PC, Deadline::at(clock, t));
  return real_sem_clockwait()(s, clock, t);
}

int sem_trywait(sem_t* s) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn_semaphore(c, s);
    c.schedule(self, make_op(OpKind::SemTryWait, addr(s), WEFT_PC));
    if (!c.semaphores.can_wait(addr(s))) {
      c.mark_last_event(self, kFailed);
      errno = EAGAIN;
      return -1;
    }
    c.semaphores.wait(addr(s));
    return 0;
  }
  return real_sem_trywait()(s);
}

int sem_post(sem_t* s) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn_semaphore(c, s);
    c.schedule(self, make_op(OpKind::SemPost, addr(s), WEFT_PC));
    c.semaphores.post(addr(s));
    return 0;
  }
  return real_sem_post()(s);
}

int sem_getvalue(sem_t* s, int* value) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn_semaphore(c, s);
    c.schedule(self, make_op(OpKind::AtomicLoad, addr(s), WEFT_PC));
    *value = static_cast<int>(c.semaphores.value(addr(s)));
    return 0;
  }
  return real_sem_getvalue()(s, value);
}

int pthread_barrier_init(pthread_barrier_t* b, const pthread_barrierattr_t* attr,
                         unsigned int count) noexcept {
  int rc = real_pthread_barrier_init()(b, attr, count);
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && rc == 0) {
    RuntimeScope scope(self);
    ctl().barriers.init(addr(b), count);
  }
  return rc;
}

int pthread_barrier_wait(pthread_barrier_t* b) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    const std::uintptr_t a = addr(b);
    if (!c.barriers.known(a)) c.barriers.init(a, barrier_count(b));
    c.schedule(self, make_op(OpKind::BarrierWait, a, WEFT_PC));
    bool last = false;
    self->wait_generation = c.barriers.arrive(a, &last);
    if (last) return PTHREAD_BARRIER_SERIAL_THREAD;
    c.schedule(self, make_op(OpKind::BarrierPass, a, WEFT_PC));
    return 0;
  }
  return real_pthread_barrier_wait()(b);
}

// Undefined while a thread waits at it (or is inside pthread_barrier_wait, not yet
// arrived); threads the last arrival released, on their way out, are allowed.
int pthread_barrier_destroy(pthread_barrier_t* b) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    const std::uintptr_t a = addr(b);
    check_no_waiters(self,
                     c.waiters(self,
                               [&c, a](const ThreadState& t) {
                                 if (t.pending.object != a) return false;
                                 return t.pending.kind == OpKind::BarrierWait ||
                                        (t.pending.kind == OpKind::BarrierPass &&
                                         !c.barriers.passed(a, t.wait_generation));
                               }),
                     a, Misuse::Object::kBarrier, "pthread_barrier_destroy of a barrier", WEFT_PC);
  }
  return real_pthread_barrier_destroy()(b);
}

int pthread_once(pthread_once_t* once, void (*init)()) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr || rt::in_language_runtime(WEFT_RAW_PC))
    return real_pthread_once()(once, init);
  const std::uintptr_t pc = WEFT_PC;
  const std::uintptr_t a = addr(once);
  {
    RuntimeScope scope(self);
    Controller& c = ctl();
    // The flag itself says whether it is done: glibc's done bit (2) alone, done before the
    // exploration started; with an execution's generation above it, weft ran it (in an
    // earlier execution of the same process, it runs again in this one); not done while the
    // model says done, a new flag in memory an old one was in (a block's std::once_flag).
    const int v = __atomic_load_n(once, __ATOMIC_ACQUIRE);
    const bool done_before = v == 2;
    if (done_before && c.onces.phase(a) == OnceModel::Phase::kNotRun)
      c.onces.set(a, OnceModel::Phase::kDone);
    else if ((v & 2) == 0 && c.onces.phase(a) == OnceModel::Phase::kDone)
      c.onces.set(a, OnceModel::Phase::kNotRun);
    c.schedule(self, make_op(OpKind::OnceEnter, a, pc));
    if (c.onces.phase(a) == OnceModel::Phase::kDone) return 0;
    c.onces.set(a, OnceModel::Phase::kRunning);
  }
  try {
    init();        // the program's code: scheduled like any other
  } catch (...) {  // std::call_once: an exception leaves the flag unset for the next caller
    RuntimeScope scope(self);
    ctl().onces.set(a, OnceModel::Phase::kNotRun);
    throw;
  }
  RuntimeScope scope(self);
  ctl().schedule(self, make_op(OpKind::OnceDone, a, pc));
  ctl().onces.set(a, OnceModel::Phase::kDone);
  // Done, as glibc would leave it, and by which execution.
  __atomic_store_n(once, static_cast<int>(2 | ctl().onces.generation() << 2), __ATOMIC_RELEASE);
  return 0;
}

}  // extern "C"
