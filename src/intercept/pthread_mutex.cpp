// Mutexes and spin locks (std::mutex, std::recursive_mutex, std::timed_mutex reach these).
#include <errno.h>
#include <pthread.h>

#include <atomic>
#include <string>

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

// glibc's __kind after pthread_mutex_destroy ("set to an invalid value" so that a use
// after destroy can be told apart); any initialisation, a static one too, rewrites it.
constexpr int kDestroyedKind = -1;
constexpr int kRobustOrPriority = 16 | 32 | 64;  // PTHREAD_MUTEX_ROBUST_NORMAL_NP, PI, PP

// Whether `m` is a mutex this execution destroyed and nothing initialised again.
bool destroyed(const Controller& c, const pthread_mutex_t* m) {
  return m->__data.__kind == kDestroyedKind && c.destroyed.contains(addr(m));
}

// A plain (normal, default or adaptive) mutex: unlocking it unheld is undefined behaviour,
// where errorcheck, recursive and robust mutexes define it (EPERM).
bool unlock_is_undefined(const pthread_mutex_t* m) {
  const int kind = m->__data.__kind;
  const int type = kind & 3;
  return kind != kDestroyedKind && (kind & kRobustOrPriority) == 0 &&
         (type == PTHREAD_MUTEX_NORMAL || type == PTHREAD_MUTEX_ADAPTIVE_NP);
}

[[noreturn]] void misuse(ThreadState* self, const pthread_mutex_t* m, std::uintptr_t pc,
                         const std::string& message) {
  Controller& c = ctl();
  const Misuse record = c.destroyed.misuse(addr(m), Misuse::Object::kMutex);
  c.misuse(self, message, record, pc);
}

// Lock, trylock, unlock or destroy of a mutex the program destroyed before.
void check_not_destroyed(ThreadState* self, const pthread_mutex_t* m, std::uintptr_t pc,
                         const char* call) {
  // In freed memory: a use after free, whatever the bytes left there say.
  ctl().check_object_alive(self, addr(m), sizeof *m, pc, OpKind::MutexLock);
  bool gone;
  {
    ReadingFor reading(self, pc);
    gone = destroyed(ctl(), m);
  }
  if (gone) [[unlikely]]
    misuse(self, m, pc, std::string(call) + " of a destroyed mutex");
}

std::string thread_name(ThreadId t) { return "T" + std::to_string(t); }

// A release of a mutex the caller does not hold in the model (an unlock, or `call`: a
// pthread_cond_wait's): of a plain mutex, by another thread or by nobody, it is undefined.
// A mutex locked outside weft's control (its real lock word set) is left alone: the
// model never saw that lock.
void check_release(ThreadState* self, const pthread_mutex_t* m, std::uintptr_t pc,
                   const std::string& call) {
  const ThreadId owner = ctl().mutexes.owner(addr(m));
  bool undefined, locked_for_real;
  {
    ReadingFor reading(self, pc);
    undefined = unlock_is_undefined(m);
    locked_for_real = m->__data.__lock != 0;
  }
  if (!undefined) return;
  if (owner != kNoThread)
    misuse(self, m, pc, call + " a mutex that " + thread_name(owner) + " holds");
  if (!locked_for_real) misuse(self, m, pc, call + " a mutex that is not locked");
}

}  // namespace

void weft::intercept::check_cond_wait_mutex(ThreadState* self, const pthread_mutex_t* m,
                                            std::uintptr_t pc) {
  check_release(self, m, pc, "pthread_cond_wait with");
}

namespace {

// The type lives in the mutex itself (glibc's __kind), whichever way it was initialised:
// pthread_mutex_init with an attribute or a static initializer (std::recursive_mutex).
// Read at every use (MutexModel::learn).
void learn_type(ThreadState* self, Controller& c, pthread_mutex_t* m, std::uintptr_t pc) {
  MutexModel::Type type = MutexModel::Type::kNormal;
  int kind;
  {
    ReadingFor reading(self, pc);
    kind = m->__data.__kind;
  }
  switch (kind & 3) {
    case PTHREAD_MUTEX_RECURSIVE: type = MutexModel::Type::kRecursive; break;
    case PTHREAD_MUTEX_ERRORCHECK: type = MutexModel::Type::kErrorCheck; break;
    default: break;
  }
  c.mutexes.learn(addr(m), type);
}

int lock(ThreadState* self, pthread_mutex_t* m, std::uintptr_t pc, const Deadline& deadline) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  learn_type(self, c, m, pc);
  if (c.schedule_wait(self, make_op(OpKind::MutexLock, addr(m), pc), deadline)) return ETIMEDOUT;
  check_not_destroyed(self, m, pc, "pthread_mutex_lock");
  const int rc = c.mutexes.lock(addr(m), self->id);
  if (rc != 0) c.mark_last_event(self, kFailed);  // an errorcheck relock: EDEADLK, nothing taken
  return rc;
}

// `mutex`: the pthread mutex (null: a spin lock, which has no type and no destroyed mark).
int trylock(ThreadState* self, std::uintptr_t m, std::uintptr_t pc, const pthread_mutex_t* mutex) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  c.schedule(self, make_op(OpKind::MutexTryLock, m, pc));
  if (mutex != nullptr) check_not_destroyed(self, mutex, pc, "pthread_mutex_trylock");
  int rc = c.mutexes.try_lock(m, self->id);
  if (rc != 0) c.mark_last_event(self, kFailed);
  return rc;
}

int unlock(ThreadState* self, std::uintptr_t m, std::uintptr_t pc, const pthread_mutex_t* mutex) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  c.schedule(self, make_op(OpKind::MutexUnlock, m, pc));
  if (mutex != nullptr) check_not_destroyed(self, mutex, pc, "pthread_mutex_unlock");
  int rc = c.mutexes.unlock(m, self->id);
  if (rc != 0) {
    c.mark_last_event(self, kFailed);  // not the holder: nothing released
    if (mutex != nullptr) check_release(self, mutex, pc, "pthread_mutex_unlock of");
  }
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
    ctl().destroyed.initialised(addr(m));
  }
  return rc;
}

int pthread_mutex_destroy(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    const std::uintptr_t pc = WEFT_PC;
    check_not_destroyed(self, m, pc, "pthread_mutex_destroy");
    // Undefined for every type (glibc says EBUSY, a program cannot have meant it).
    if (const ThreadId owner = c.mutexes.owner(addr(m)); owner != kNoThread)
      misuse(self, m, pc, "pthread_mutex_destroy of a mutex that " + thread_name(owner) + " holds");
    c.mutexes.reset_one(addr(m));
    // The real destroy marks the memory destroyed (weft never locks it for real).
    int rc;
    {
      ReadingFor reading(self, pc);
      rc = real_pthread_mutex_destroy()(m);
    }
    if (rc == 0) c.destroyed.destroyed(addr(m), self->id, pc, c.steps());
    return rc;
  }
  return real_pthread_mutex_destroy()(m);
}

int pthread_mutex_lock(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return lock(self, m, WEFT_PC, Deadline::never());
  return real_pthread_mutex_lock()(m);
}

int pthread_mutex_trylock(pthread_mutex_t* m) noexcept {
  if (ThreadState* self = rt::controlled_thread()) {
    const std::uintptr_t pc = WEFT_PC;
    {
      RuntimeScope scope(self);  // the model allocates: not the program's memset
      learn_type(self, ctl(), m, pc);
    }
    return trylock(self, addr(m), pc, m);
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
    const std::uintptr_t pc = WEFT_PC;
    {
      RuntimeScope scope(self);  // an errorcheck mutex never locked still reports EPERM
      learn_type(self, ctl(), m, pc);
    }
    return unlock(self, addr(m), pc, m);
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
  if (ThreadState* self = rt::controlled_thread()) return trylock(self, addr(l), WEFT_PC, nullptr);
  return real_pthread_spin_trylock()(l);
}

int pthread_spin_unlock(pthread_spinlock_t* l) noexcept {
  if (ThreadState* self = rt::controlled_thread()) return unlock(self, addr(l), WEFT_PC, nullptr);
  return real_pthread_spin_unlock()(l);
}

}  // extern "C"
