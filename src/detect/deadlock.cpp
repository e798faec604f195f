#include "detect/deadlock.hpp"

namespace weft::detect {
namespace {

std::string thread_name(ThreadId t) { return "T" + std::to_string(t); }

// What a holder must do for the waiter to go on, in the program's terms.
std::string awaited(OpKind k) {
  switch (k) {
    case OpKind::MutexLock:
    case OpKind::MutexTryLock: return "to unlock a mutex";
    case OpKind::RwReadLock:
    case OpKind::RwWriteLock: return "to unlock a read-write lock";
    case OpKind::ThreadJoin: return "to end: a join";
    case OpKind::OnceEnter: return "to finish a call_once";
    default: return std::string(op_name(k));
  }
}

// "T1 waits for T2 (to unlock a mutex)" or "T3 waits on a condition variable, never
// signalled": the program's terms, not weft's step names. No addresses: they change from
// run to run (thread stacks), and the message names the bug in replays.
std::string one(const WaitEdge& w) {
  const std::string s = thread_name(w.thread);
  if (w.holder != kNoThread)
    return s + " waits for " + thread_name(w.holder) + " (" + awaited(w.op.kind) + ")";
  switch (w.op.kind) {
    case OpKind::CondWake: return s + " waits on a condition variable, never signalled";
    case OpKind::FutexWait:
    case OpKind::FutexWoken: return s + " waits on a futex, never woken";
    case OpKind::SemWait: return s + " waits on a semaphore, which stays at 0";
    case OpKind::BarrierPass: return s + " waits at a barrier too few threads reach";
    default: return s + " waits in " + std::string(op_name(w.op.kind));
  }
}

}  // namespace

std::string describe_deadlock(const std::vector<WaitEdge>& waits) {
  auto find = [&](ThreadId t) -> const WaitEdge* {
    for (const WaitEdge& w : waits)
      if (w.thread == t) return &w;
    return nullptr;
  };
  // A cycle: follow holders from each thread; at most waits.size() hops.
  for (const WaitEdge& start : waits) {
    std::vector<const WaitEdge*> path{&start};
    for (const WaitEdge* w = &start; w->holder != kNoThread && path.size() <= waits.size();) {
      w = find(w->holder);
      if (w == nullptr) break;
      if (w == &start) {
        std::string s = "cycle: ";
        for (std::size_t i = 0; i < path.size(); ++i) s += (i ? ", " : "") + one(*path[i]);
        return s;
      }
      path.push_back(w);
    }
  }
  std::string s;
  for (const WaitEdge& w : waits) {
    if (w.op.kind == OpKind::ThreadJoin) continue;  // joins only wait for the others
    s += (s.empty() ? "" : "; ") + one(w);
  }
  return s.empty() ? "every thread waits to join another" : s;
}

std::vector<ThreadId> unblocked_when_none_enabled(const std::vector<StuckThread>& blocked) {
  std::vector<ThreadId> go;
  for (const StuckThread& b : blocked)
    if (b.can_time_out) go.push_back(b.thread);
  if (go.empty())
    for (const StuckThread& b : blocked)
      if (b.waits_for_input) go.push_back(b.thread);
  return go;
}

}  // namespace weft::detect
