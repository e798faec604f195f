#pragma once
// The dependence relation partial-order reduction reasons with (Flanagan and Godefroid,
// POPL'05; GAMBIT section 3.3): two operations of different threads are dependent when
// they touch one object and one of them writes or releases it. Besides the object an Op
// names, the thread operations touch pseudo-objects (a create writes the child's start,
// its thread-start reads it; an exit writes the thread's end, a join reads it), a
// condition variable's wait and wake touch its mutex too, and a process exit depends on
// everything (it ends every other thread).
#include <cstddef>
#include <cstdint>

#include "core/event.hpp"
#include "core/op.hpp"

namespace weft {

struct ObjectAccess {
  std::uint64_t key = 0;
  bool writes = false;
};

// Pseudo-object keys, apart from user-space addresses by their top bits.
inline constexpr std::uint64_t kStartOfThread = 0xA000000000000000ull;
inline constexpr std::uint64_t kExitOfThread = 0xB000000000000000ull;
inline constexpr std::uint64_t kEverything = 0xC000000000000000ull;

// The objects thread t's `op` touches, at most two, into out; returns how many.
inline std::size_t object_accesses(ThreadId t, const Op& op, ObjectAccess out[2]) {
  switch (op.kind) {
    case OpKind::ThreadCreate: out[0] = {kStartOfThread | op.aux, true}; return 1;
    case OpKind::ThreadStart: out[0] = {kStartOfThread | t, false}; return 1;
    case OpKind::ThreadExit: out[0] = {kExitOfThread | t, true}; return 1;
    case OpKind::ThreadJoin:
    case OpKind::ThreadTryJoin: out[0] = {kExitOfThread | op.aux, false}; return 1;
    case OpKind::ProcessExit: out[0] = {kEverything, true}; return 1;
    case OpKind::CondWait:
    case OpKind::CondWake: {
      out[0] = {op.object, true};
      const std::uintptr_t m = cond_mutex(op);
      if (m == 0) return 1;
      out[1] = {m, true};
      return 2;
    }
    default:
      if (op.object == 0) return 0;
      out[0] = {op.object, op.writes() || op.releases()};
      return 1;
  }
}

// The same for a step that ran: one that failed (kFailed: a try of a held lock, an
// errorcheck relock, an unlock by a non-holder) changed nothing, so it only reads its
// objects. (A compare-exchange that did not exchange is marked kUnchanged instead, and
// stays a write here: the strategy is offered it before anyone knows it will fail.)
inline std::size_t object_accesses(const Event& e, ObjectAccess out[2]) {
  const std::size_t n = object_accesses(e.thread, e.op, out);
  if (e.flags & kFailed)
    for (std::size_t i = 0; i < n; ++i) out[i].writes = false;
  return n;
}

// A free writes its whole block, [object, object + aux): any other object in it, or an
// overlapping block, conflicts with it.
inline bool touches_block(const Op& free_op, ThreadId t, const Op& other) {
  const std::uint64_t base = free_op.object, end = base + free_op.aux;
  if (other.kind == OpKind::Free) return other.object < end && base < other.object + other.aux;
  ObjectAccess acc[2];
  const std::size_t n = object_accesses(t, other, acc);
  for (std::size_t i = 0; i < n; ++i)
    if (acc[i].key >= base && acc[i].key < end) return true;
  return false;
}

// Two sets of object accesses touch one object, and one of them writes it.
inline bool conflict(const ObjectAccess* x, std::size_t nx, const ObjectAccess* y, std::size_t ny) {
  for (std::size_t i = 0; i < nx; ++i)
    for (std::size_t j = 0; j < ny; ++j)
      if (x[i].key == y[j].key && (x[i].writes || y[j].writes)) return true;
  return false;
}

// Operations a and b of threads ta and tb do not commute.
inline bool dependent(ThreadId ta, const Op& a, ThreadId tb, const Op& b) {
  if (ta == tb) return true;
  if (a.kind == OpKind::ProcessExit || b.kind == OpKind::ProcessExit) return true;
  if (a.kind == OpKind::Free && touches_block(a, tb, b)) return true;
  if (b.kind == OpKind::Free && touches_block(b, ta, a)) return true;
  // A cancellation changes what its target does at any of its steps.
  if ((a.kind == OpKind::ThreadCancel && a.aux == tb) ||
      (b.kind == OpKind::ThreadCancel && b.aux == ta))
    return true;
  ObjectAccess x[2], y[2];
  return conflict(x, object_accesses(ta, a, x), y, object_accesses(tb, b, y));
}

// Whether an earlier operation and a later one of another thread might both be enabled
// at once: a conservative "yes" unless the later one waits for exactly what the earlier
// one is (a lock for the unlock of a holder, a thread's start for its create, a join for
// the exit). DPOR looks past such pairs for the race that can be reversed. A later step
// that timed out, woke spuriously or failed (an errorcheck relock) was enabled without
// its condition: always "yes".
inline bool may_be_coenabled(const Op& earlier, const Event& later) {
  if (later.flags & (kTimedOut | kSpurious | kFailed)) return true;
  switch (later.op.kind) {
    case OpKind::MutexLock: return earlier.kind != OpKind::MutexUnlock;
    case OpKind::RwWriteLock: return earlier.kind != OpKind::RwUnlock;
    case OpKind::ThreadStart: return earlier.kind != OpKind::ThreadCreate;
    case OpKind::ThreadJoin: return earlier.kind != OpKind::ThreadExit;
    default: return true;
  }
}

}  // namespace weft
