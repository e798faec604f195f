// OpenMP's locks (omp_*_lock, omp_*_nest_lock), critical sections and GOMP_atomic_*: each a
// mutex of weft's model keyed by its address, as spin locks are, so that a lock-order
// deadlock is a deadlock and DPOR sees who waits for whom. libgomp's omp_lock_t (4 bytes)
// and libomp's (a pointer) both hold the 4-byte word a run outside weft spins on, and no
// more is written; a nest lock keeps its depth in the next four bytes (libgomp's is 16
// bytes, libomp's 8).
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <string>

#include "intercept/openmp_lock.hpp"
#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;
using rt::MutexModel;

namespace {

struct LockWords {
  std::uint32_t owner;  // outside weft: the holder's tid; 0 free
  std::uint32_t depth;  // nest locks: how many times the holder has it
};
LockWords* words(void* lock) { return static_cast<LockWords*>(lock); }

std::uint32_t my_tid() { return static_cast<std::uint32_t>(syscall(SYS_gettid)); }

// Outside weft's control (a program run on its own): a real spin lock in the lock's words.
bool real_try(void* lock, bool nest) {
  LockWords* w = words(lock);
  const std::uint32_t me = my_tid();
  std::uint32_t expected = 0;
  if (__atomic_compare_exchange_n(&w->owner, &expected, me, false, __ATOMIC_ACQUIRE,
                                  __ATOMIC_RELAXED)) {
    if (nest) w->depth = 1;  // a simple lock has 4 bytes only
    return true;
  }
  if (nest && expected == me) {
    ++w->depth;
    return true;
  }
  return false;
}

void real_unlock(void* lock, bool nest) {
  LockWords* w = words(lock);
  if (!nest || --w->depth == 0) __atomic_store_n(&w->owner, 0, __ATOMIC_RELEASE);
}

void learn(Controller& c, void* lock, bool nest) {
  c.mutexes.learn(addr(lock), nest ? MutexModel::Type::kRecursive : MutexModel::Type::kNormal);
}

void lock(void* lock, bool nest, std::uintptr_t pc) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn(c, lock, nest);
    c.schedule(self, make_op(OpKind::MutexLock, addr(lock), pc));
    c.mutexes.lock(addr(lock), self->id);
    if (nest) ++words(lock)->depth;
    return;
  }
  while (!real_try(lock, nest)) sched_yield();
}

// 0 when taken by another thread; else 1, or a nest lock's new depth.
int try_lock(void* lock, bool nest, std::uintptr_t pc) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn(c, lock, nest);
    c.schedule(self, make_op(OpKind::MutexTryLock, addr(lock), pc));
    if (c.mutexes.try_lock(addr(lock), self->id) != 0) {
      c.mark_last_event(self, kFailed);
      return 0;
    }
    return nest ? static_cast<int>(++words(lock)->depth) : 1;
  }
  if (!real_try(lock, nest)) return 0;
  return nest ? static_cast<int>(words(lock)->depth) : 1;
}

// Releasing a lock the thread does not hold is undefined in OpenMP: an api-misuse.
void unlock(void* lock, bool nest, std::uintptr_t pc, const char* call) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    Controller& c = ctl();
    learn(c, lock, nest);
    c.schedule(self, make_op(OpKind::MutexUnlock, addr(lock), pc));
    const ThreadId owner = c.mutexes.owner(addr(lock));
    if (c.mutexes.unlock(addr(lock), self->id) != 0) {
      Misuse misuse;
      misuse.object = addr(lock);
      misuse.kind = Misuse::Object::kMutex;
      c.misuse(self,
               std::string(call) + (owner == kNoThread
                                        ? " of a lock that is not set"
                                        : " of a lock that T" + std::to_string(owner) + " holds"),
               misuse, pc);
    }
    if (nest) --words(lock)->depth;
    return;
  }
  real_unlock(lock, nest);
}

void init(void* lock, bool nest) {
  if (nest)
    *words(lock) = LockWords{0, 0};
  else
    words(lock)->owner = 0;
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().mutexes.reset_one(addr(lock));
  }
}

// Unnamed critical sections share one lock, GOMP_atomic_start another.
std::uint64_t g_critical_lock;
std::uint64_t g_atomic_lock;

}  // namespace

void weft::intercept::openmp::set_lock(void* l, std::uintptr_t pc) { lock(l, false, pc); }
void weft::intercept::openmp::unset_lock(void* l, std::uintptr_t pc, const char* call) {
  unlock(l, false, pc, call);
}
void* weft::intercept::openmp::atomic_lock() { return &g_atomic_lock; }

extern "C" {

void omp_init_lock(void* l) { init(l, false); }
void omp_init_lock_with_hint(void* l, int) { init(l, false); }
void omp_destroy_lock(void* l) { init(l, false); }
void omp_set_lock(void* l) { lock(l, false, WEFT_PC); }
void omp_unset_lock(void* l) { unlock(l, false, WEFT_PC, "omp_unset_lock"); }
int omp_test_lock(void* l) { return try_lock(l, false, WEFT_PC); }

void omp_init_nest_lock(void* l) { init(l, true); }
void omp_init_nest_lock_with_hint(void* l, int) { init(l, true); }
void omp_destroy_nest_lock(void* l) { init(l, true); }
void omp_set_nest_lock(void* l) { lock(l, true, WEFT_PC); }
void omp_unset_nest_lock(void* l) { unlock(l, true, WEFT_PC, "omp_unset_nest_lock"); }
int omp_test_nest_lock(void* l) { return try_lock(l, true, WEFT_PC); }

void GOMP_critical_start() { lock(&g_critical_lock, false, WEFT_PC); }
void GOMP_critical_end() { unlock(&g_critical_lock, false, WEFT_PC, "GOMP_critical_end"); }
// A named critical section's lock is the pointer-sized variable gcc gives the name.
void GOMP_critical_name_start(void** name) { lock(name, false, WEFT_PC); }
void GOMP_critical_name_end(void** name) { unlock(name, false, WEFT_PC, "GOMP_critical_name_end"); }
void GOMP_atomic_start() { lock(&g_atomic_lock, false, WEFT_PC); }
void GOMP_atomic_end() { unlock(&g_atomic_lock, false, WEFT_PC, "GOMP_atomic_end"); }

}  // extern "C"
