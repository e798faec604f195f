#include "detect/deadlock.hpp"

namespace weft::detect {
namespace {

std::string thread_name(ThreadId t) { return "T" + std::to_string(t); }

// "T1 waits for T2 (mutex-lock)" or "T3 waits in cond-wake, never signalled". No addresses:
// they change from run to run (thread stacks), and the message names the bug in replays.
std::string one(const WaitEdge& w) {
  std::string s = thread_name(w.thread);
  if (w.holder != kNoThread) {
    return s + " waits for " + thread_name(w.holder) + " (" + std::string(op_name(w.op.kind)) +
           ")";
  }
  s += " waits in " + std::string(op_name(w.op.kind));
  switch (w.op.kind) {
    case OpKind::CondWake: return s + ", never signalled";
    case OpKind::FutexWoken: return s + ", never woken";
    case OpKind::SemWait: return s + ", the semaphore stays at 0";
    case OpKind::BarrierPass: return s + ", too few threads arrive";
    default: return s;
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

}  // namespace weft::detect
