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
WEFT_DEFINE_REAL(pthread_rwlock_destroy)

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
  c.rwlocks.take(a, self->id, write);
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
  c.rwlocks.take(a, self->id, write);
  return 0;
}

// Who holds `l` in the model: "T1 holds for writing", "T0 and T2 hold for reading"; ""
// when nobody does.
std::string holders(const Controller& c, std::uintptr_t l) {
  if (const ThreadId w = c.rwlocks.writer(l); w != kNoThread)
    return "T" + std::to_string(w) + " holds for writing";
  std::vector<BlockedThread> readers;
  for (ThreadId t : c.rwlocks.readers(l)) readers.push_back(BlockedThread{t, {}});
  if (readers.empty()) return {};
  return thread_list(readers) + (readers.size() == 1 ? " holds" : " hold") + " for reading";
}

[[noreturn]] void misuse(ThreadState* self, std::uintptr_t l, std::uintptr_t pc,
                         const std::string& message) {
  Misuse m;
  m.object = l;
  m.kind = Misuse::Object::kRwLock;
  ctl().misuse(self, message, m, pc);
}

// Unlocking a read-write lock the caller does not hold is undefined (POSIX). One taken
// outside weft's control (glibc's words set: weft never takes it for real) is left
// alone: the model never saw that lock.
int unlock(ThreadState* self, pthread_rwlock_t* l, std::uintptr_t pc) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const std::uintptr_t a = addr(l);
  c.schedule(self, make_op(OpKind::RwUnlock, a, pc));
  const int rc = c.rwlocks.unlock(a, self->id);
  if (rc == 0) return 0;
  c.mark_last_event(self, kFailed);
  bool locked_for_real;
  {
    ReadingFor reading(self, pc);
    locked_for_real = l->__data.__readers != 0 || l->__data.__cur_writer != 0;
  }
  if (const std::string who = holders(c, a); !who.empty())
    misuse(self, a, pc, "pthread_rwlock_unlock of a read-write lock that " + who);
  if (!locked_for_real)
    misuse(self, a, pc, "pthread_rwlock_unlock of a read-write lock that is not locked");
  return rc;
}

// Undefined while any thread holds it, or waits to take it.
void check_destroy(ThreadState* self, pthread_rwlock_t* l, std::uintptr_t pc) {
  Controller& c = ctl();
  const std::uintptr_t a = addr(l);
  if (const std::string who = holders(c, a); !who.empty())
    misuse(self, a, pc, "pthread_rwlock_destroy of a read-write lock that " + who);
  check_no_waiters(self,
                   c.waiters(self,
                             [a](const ThreadState& t) {
                               return t.pending.object == a &&
                                      (t.pending.kind == OpKind::RwReadLock ||
                                       t.pending.kind == OpKind::RwWriteLock);
                             }),
                   a, Misuse::Object::kRwLock, "pthread_rwlock_destroy of a read-write lock", pc);
  c.rwlocks.reset_one(a);
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
  if (ThreadState* self = rt::controlled_thread()) return unlock(self, l, WEFT_PC);
  return real_pthread_rwlock_unlock()(l);
}
int pthread_rwlock_destroy(pthread_rwlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    check_destroy(self, l, WEFT_PC);
  }
  return real_pthread_rwlock_destroy()(l);
}

}  // extern "C"
