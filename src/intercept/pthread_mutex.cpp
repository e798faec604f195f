// Mutexes and spin locks (std::mutex, std::recursive_mutex, std::timed_mutex reach these).
#include <errno.h>
#include <pthread.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::Deadline;
using rt::MutexModel;

WEFT_DEFINE_REAL(pthread_mutex_init)
WEFT_DEFINE_REAL(pthread_mutex_destroy)
WEFT_DEFINE_REAL(pthread_mutex_lock)
WEFT_DEFINE_REAL(pthread_mutex_trylock)
WEFT_DEFINE_REAL(pthread_mutex_timedlock)
WEFT_DEFINE_REAL(pthread_mutex_clocklock)
WEFT_DEFINE_REAL(pthread_mutex_unlock)
WEFT_DEFINE_REAL(pthread_spin_lock)
WEFT_DEFINE_REAL(pthread_spin_trylock)
WEFT_DEFINE_REAL(pthread_spin_unlock)

namespace {

// The type lives in the mutex itself (glibc's __kind), whichever way it was initialised:
// pthread_mutex_init with an attribute or a static initializer (std::recursive_mutex).
// Read at every use (MutexModel::learn).
void learn_type(Controller& c, pthread_mutex_t* m) {
  MutexModel::Type type = MutexModel::Type::kNormal;
  switch (m->__data.__kind & 3) {
    case PTHREAD_MUTEX_RECURSIVE: type = MutexModel::Type::kRecursive; break;
    case PTHREAD_MUTEX_ERRORCHECK: type = MutexModel::Type::kErrorCheck; break;
    default: break;
  }
  c.mutexes.learn(addr(m), type);
}

int lock(ThreadState* self, pthread_mutex_t* m, std::uintptr_t pc, const Deadline& deadline) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  learn_type(c, m);
  if (c.schedule_wait(self, make_op(OpKind::MutexLock, addr(m), pc), deadline)) return ETIMEDOUT;
  const int rc = c.mutexes.lock(addr(m), self->id);
  if (rc != 0) c.mark_last_event(self, kFailed);  // an errorcheck relock: EDEADLK, nothing taken
  return rc;
}

int trylock(ThreadState* self, std::uintptr_t m, std::uintptr_t pc) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  c.schedule(self, make_op(OpKind::MutexTryLock, m, pc));
  int rc = c.mutexes.try_lock(m, self->id);
  if (rc != 0) c.mark_last_event(self, kFailed);
  return rc;
}

int unlock(ThreadState* self, std::uintptr_t m, std::uintptr_t pc) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  c.schedule(self, make_op(OpKind::MutexUnlock, m, pc));
  int rc = c.mutexes.unlock(m, self->id);
  if (rc != 0) c.mark_last_event(self, kFailed);  // not the holder: nothing released
  // Unlocking a normal mutex one does not hold is undefined; glibc lets it pass.
  if (rc != 0 && c.mutexes.type(m) == MutexModel::Type::kNormal) return 0;
  return rc;
}

}  // namespace

extern "C" {

int pthread_mutex_init(pthread_mutex_t* m, const pthread_mutexattr_t* attr) noexcept {
  int rc = real_pthread_mutex_init()(m, attr);
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().mutexes.reset_one(addr(m));
  }
  return rc;
}

int pthread_mutex_destroy(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    if (ctl().mutexes.owner(addr(m)) != kNoThread) return EBUSY;
    ctl().mutexes.reset_one(addr(m));
    return 0;
  }
  return real_pthread_mutex_destroy()(m);
}

int pthread_mutex_lock(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, m, WEFT_PC, Deadline::never());
  return real_pthread_mutex_lock()(m);
}

int pthread_mutex_trylock(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    {
      RuntimeScope scope(self);  // the model allocates: not the program's memset
      learn_type(ctl(), m);
    }
    return trylock(self, addr(m), WEFT_PC);
  }
  return real_pthread_mutex_trylock()(m);
}

int pthread_mutex_timedlock(pthread_mutex_t* m, const struct timespec* abstime) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, m, WEFT_PC, Deadline::at(CLOCK_REALTIME, abstime));
  return real_pthread_mutex_timedlock()(m, abstime);
}

int pthread_mutex_clocklock(pthread_mutex_t* m, clockid_t clock,
                            const struct timespec* abstime) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, m, WEFT_PC, Deadline::at(clock, abstime));
  return real_pthread_mutex_clocklock()(m, clock, abstime);
}

int pthread_mutex_unlock(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    {
      RuntimeScope scope(self);  // an errorcheck mutex never locked still reports EPERM
      learn_type(ctl(), m);
    }
    return unlock(self, addr(m), WEFT_PC);
  }
  return real_pthread_mutex_unlock()(m);
}

// Spin locks are mutexes that spin: modelled as normal mutexes.
int pthread_spin_lock(pthread_spinlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().schedule(self, make_op(OpKind::MutexLock, addr(l), WEFT_PC));
    return ctl().mutexes.lock(addr(l), self->id);
  }
  return real_pthread_spin_lock()(l);
}

int pthread_spin_trylock(pthread_spinlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return trylock(self, addr(l), WEFT_PC);
  return real_pthread_spin_trylock()(l);
}

int pthread_spin_unlock(pthread_spinlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return unlock(self, addr(l), WEFT_PC);
  return real_pthread_spin_unlock()(l);
}

}  // extern "C"
