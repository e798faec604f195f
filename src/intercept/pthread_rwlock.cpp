// Reader-writer locks (std::shared_mutex reaches these).
#include <errno.h>
#include <pthread.h>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::Deadline;

WEFT_DEFINE_REAL(pthread_rwlock_rdlock)
WEFT_DEFINE_REAL(pthread_rwlock_wrlock)
WEFT_DEFINE_REAL(pthread_rwlock_tryrdlock)
WEFT_DEFINE_REAL(pthread_rwlock_trywrlock)
WEFT_DEFINE_REAL(pthread_rwlock_timedrdlock)
WEFT_DEFINE_REAL(pthread_rwlock_timedwrlock)
WEFT_DEFINE_REAL(pthread_rwlock_clockrdlock)
WEFT_DEFINE_REAL(pthread_rwlock_clockwrlock)
WEFT_DEFINE_REAL(pthread_rwlock_unlock)

namespace {

int lock(ThreadState* self, pthread_rwlock_t* l, std::uintptr_t pc, bool write,
         const Deadline& deadline) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const std::uintptr_t a = addr(l);
  if (c.rwlocks.writer(a) == self->id) return EDEADLK;
  if (c.schedule_wait(self, make_op(write ? OpKind::RwWriteLock : OpKind::RwReadLock, a, pc),
                     deadline))
    return ETIMEDOUT;
  if (write)
    c.rwlocks.write_lock(a, self->id);
  else
    c.rwlocks.read_lock(a, self->id);
  return 0;
}

int trylock(ThreadState* self, pthread_rwlock_t* l, std::uintptr_t pc, bool write) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const std::uintptr_t a = addr(l);
  c.schedule(self, make_op(write ? OpKind::RwTryWriteLock : OpKind::RwTryReadLock, a, pc));
  if (write ? !c.rwlocks.can_write(a) : !c.rwlocks.can_read(a)) {
    c.mark_last_event(self, kFailed);
    return EBUSY;
  }
  if (write)
    c.rwlocks.write_lock(a, self->id);
  else
    c.rwlocks.read_lock(a, self->id);
  return 0;
}

}  // namespace

extern "C" {

int pthread_rwlock_rdlock(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, false, Deadline::never());
  return real_pthread_rwlock_rdlock()(l);
}
int pthread_rwlock_wrlock(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, true, Deadline::never());
  return real_pthread_rwlock_wrlock()(l);
}
int pthread_rwlock_tryrdlock(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return trylock(self, l, WEFT_PC, false);
  return real_pthread_rwlock_tryrdlock()(l);
}
int pthread_rwlock_trywrlock(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return trylock(self, l, WEFT_PC, true);
  return real_pthread_rwlock_trywrlock()(l);
}
int pthread_rwlock_timedrdlock(pthread_rwlock_t* l, const struct timespec* t) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, false, Deadline::at(CLOCK_REALTIME, t));
  return real_pthread_rwlock_timedrdlock()(l, t);
}
int pthread_rwlock_timedwrlock(pthread_rwlock_t* l, const struct timespec* t) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, true, Deadline::at(CLOCK_REALTIME, t));
  return real_pthread_rwlock_timedwrlock()(l, t);
}
int pthread_rwlock_clockrdlock(pthread_rwlock_t* l, clockid_t c,
                               const struct timespec* t) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, false, Deadline::at(c, t));
  return real_pthread_rwlock_clockrdlock()(l, c, t);
}
int pthread_rwlock_clockwrlock(pthread_rwlock_t* l, clockid_t c,
                               const struct timespec* t) noexcept {
  if (ThreadState* self = rt::controlled_thread())
    return lock(self, l, WEFT_PC, true, Deadline::at(c, t));
  return real_pthread_rwlock_clockwrlock()(l, c, t);
}
int pthread_rwlock_unlock(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().schedule(self, make_op(OpKind::RwUnlock, addr(l), WEFT_PC));
    return ctl().rwlocks.unlock(addr(l), self->id);
  }
  return real_pthread_rwlock_unlock()(l);
}

}  // extern "C"
