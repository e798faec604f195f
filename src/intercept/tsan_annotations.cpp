// ThreadSanitizer's annotation API, which libraries built for TSan call when they detect
// __SANITIZE_THREAD__ (their own synchronisation, races they accept, their own mutexes),
// with its meaning under weft: a happens-before edge is a release and an acquire for the
// race detector and for partial-order reduction's dependence; a mutex annotated with
// __tsan_mutex_* becomes a lock weft models (blocking, deadlock detection, dpor), its
// implementation's own accesses hidden behind the model as TSan hides them.
#include <sanitizer/tsan_interface.h>

#include <cstdint>

#include "intercept/real.hpp"

using namespace weft;
using namespace weft::intercept;

namespace {

// A release or acquire on `object` (side: kAnnotatedWriter/Reader for a read-write
// lock's), a scheduling point as a synchronisation call is.
void happens(OpKind kind, const volatile void* object, std::uint32_t side, std::uintptr_t pc) {
  ThreadState* self = rt::controlled_thread();
  if (self == nullptr || object == nullptr) return;
  RuntimeScope scope(self);
  ctl().schedule(self, make_op(kind, addr(object), pc, 0, side));
}

// One more (delta 1) or one fewer (-1) level of a per-thread annotation depth.
template <typename T>
void nest(T ThreadState::*depth, int delta) {
  ThreadState* self = rt::t_self;
  if (self == nullptr) return;
  if (delta > 0)
    ++(self->*depth);
  else if (self->*depth > 0)
    --(self->*depth);
}

bool reads_only(unsigned flags) { return (flags & __tsan_mutex_read_lock) != 0; }

// __tsan_mutex_pre_lock: the lock, modelled as a read-write lock (an exclusive lock is a
// write lock), taken before the implementation runs: a thread that must wait is blocked
// in the model, where deadlock detection sees it. A try-lock is a point here and takes
// the model's lock once the implementation says it succeeded (post_lock).
void pre_lock(ThreadState* self, std::uintptr_t m, unsigned flags, std::uintptr_t pc) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const bool read = reads_only(flags);
  if ((flags & __tsan_mutex_try_lock) != 0) {
    c.schedule(self, make_op(read ? OpKind::RwTryReadLock : OpKind::RwTryWriteLock, m, pc));
    return;
  }
  if (!read && c.rwlocks.writer(m) == self->id) {  // a write-reentrant mutex, again
    c.rwlocks.reenter(m);
    return;
  }
  c.schedule(self, make_op(read ? OpKind::RwReadLock : OpKind::RwWriteLock, m, pc));
  c.rwlocks.take(m, self->id, !read);
}

void post_try_lock(ThreadState* self, std::uintptr_t m, unsigned flags) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  const bool read = reads_only(flags);
  const bool free_in_model = read ? c.rwlocks.can_read(m) : c.rwlocks.can_write(m);
  if ((flags & __tsan_mutex_try_lock_failed) != 0 || !free_in_model) {
    c.mark_last_event(self, kFailed);
    return;
  }
  c.rwlocks.take(m, self->id, !read);
}

// Returns the recursion levels released (recursive_unlock), else 0.
int pre_unlock(ThreadState* self, std::uintptr_t m, unsigned flags, std::uintptr_t pc) {
  RuntimeScope scope(self);
  Controller& c = ctl();
  int levels = 1;
  if ((flags & __tsan_mutex_recursive_unlock) != 0)
    while (c.rwlocks.leave_reentered(m)) ++levels;
  else if (c.rwlocks.leave_reentered(m))
    return 0;
  c.schedule(self, make_op(OpKind::RwUnlock, m, pc));
  if (c.rwlocks.unlock(m, self->id) != 0) c.mark_last_event(self, kFailed);
  return (flags & __tsan_mutex_recursive_unlock) != 0 ? levels : 0;
}

}  // namespace

extern "C" {

// --- happens-before edges -------------------------------------------------------------
void AnnotateHappensBefore(const char*, int, const volatile void* addr) {
  happens(OpKind::HbRelease, addr, 0, WEFT_PC);
}
void AnnotateHappensAfter(const char*, int, const volatile void* addr) {
  happens(OpKind::HbAcquire, addr, 0, WEFT_PC);
}
void __tsan_release(void* addr) { happens(OpKind::HbRelease, addr, 0, WEFT_PC); }
void __tsan_acquire(void* addr) { happens(OpKind::HbAcquire, addr, 0, WEFT_PC); }

// --- a lock the program implements, annotated as a read-write lock --------------------
// Only its happens-before: a writer's release orders it before every later acquirer, a
// reader's before later writers (readers do not order each other).
void AnnotateRWLockCreate(const char*, int, const volatile void*) {}
void AnnotateRWLockCreateStatic(const char*, int, const volatile void*) {}
void AnnotateRWLockDestroy(const char*, int, const volatile void*) {}
void AnnotateRWLockAcquired(const char*, int, const volatile void* lock, long is_w) {
  happens(OpKind::HbAcquire, lock, is_w != 0 ? kAnnotatedWriter : kAnnotatedReader, WEFT_PC);
}
void AnnotateRWLockReleased(const char*, int, const volatile void* lock, long is_w) {
  happens(OpKind::HbRelease, lock, is_w != 0 ? kAnnotatedWriter : kAnnotatedReader, WEFT_PC);
}

// --- races the program accepts ----------------------------------------------------------
void AnnotateBenignRaceSized(const char*, int, const volatile void* mem, unsigned long size,
                             const char*) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().benign_race(addr(mem), size);
  }
}
void AnnotateBenignRace(const char* file, int line, const volatile void* addr, const char* d) {
  AnnotateBenignRaceSized(file, line, addr, 1, d);
}
void AnnotateIgnoreReadsBegin(const char*, int) { nest(&ThreadState::ignore_reads, 1); }
void AnnotateIgnoreReadsEnd(const char*, int) { nest(&ThreadState::ignore_reads, -1); }
void AnnotateIgnoreWritesBegin(const char*, int) { nest(&ThreadState::ignore_writes, 1); }
void AnnotateIgnoreWritesEnd(const char*, int) { nest(&ThreadState::ignore_writes, -1); }
void __tsan_ignore_thread_begin() {
  nest(&ThreadState::ignore_reads, 1);
  nest(&ThreadState::ignore_writes, 1);
}
void __tsan_ignore_thread_end() {
  nest(&ThreadState::ignore_reads, -1);
  nest(&ThreadState::ignore_writes, -1);
}
void AnnotateThreadName(const char*, int, const char* name) {
  if (ThreadState* self = rt::controlled_thread(); self != nullptr && name != nullptr) {
    RuntimeScope scope(self);
    ctl().thread_named(*self, name);
  }
}

// --- a mutex the program implements, annotated with TSan's mutex interface ------------
// Between pre_* and post_* runs the mutex's own code: hidden (mutex_internals).
void __tsan_mutex_create(void*, unsigned) {}
void __tsan_mutex_destroy(void* m, unsigned) {
  if (ThreadState* self = rt::controlled_thread()) {
    RuntimeScope scope(self);
    ctl().rwlocks.reset_one(addr(m));
  }
}
void __tsan_mutex_pre_lock(void* m, unsigned flags) {
  if (ThreadState* self = rt::controlled_thread()) {
    pre_lock(self, addr(m), flags, WEFT_PC);
    ++self->mutex_internals;
  }
}
void __tsan_mutex_post_lock(void* m, unsigned flags, int) {
  ThreadState* self = rt::t_self;
  if (self == nullptr || self->mutex_internals == 0) return;
  --self->mutex_internals;
  if ((flags & __tsan_mutex_try_lock) != 0 && self->runtime_depth == 0)
    post_try_lock(self, addr(m), flags);
}
int __tsan_mutex_pre_unlock(void* m, unsigned flags) {
  int levels = 0;
  if (ThreadState* self = rt::controlled_thread()) {
    levels = pre_unlock(self, addr(m), flags, WEFT_PC);
    ++self->mutex_internals;
  }
  return levels;
}
void __tsan_mutex_post_unlock(void*, unsigned) { nest(&ThreadState::mutex_internals, -1); }
void __tsan_mutex_pre_signal(void*, unsigned) { nest(&ThreadState::mutex_internals, 1); }
void __tsan_mutex_post_signal(void*, unsigned) { nest(&ThreadState::mutex_internals, -1); }
// The implementation calls out to unrelated code (a scheduler, a profiler): visible again.
void __tsan_mutex_pre_divert(void*, unsigned) { nest(&ThreadState::mutex_internals, -1); }
void __tsan_mutex_post_divert(void*, unsigned) { nest(&ThreadState::mutex_internals, 1); }

}  // extern "C"
