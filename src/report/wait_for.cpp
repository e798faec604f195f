#include "report/wait_for.hpp"

#include <unordered_map>

namespace weft {

WaitFor::WaitFor(const BugRecord& bug) {
  std::unordered_map<std::uintptr_t, ThreadId> holder;
  for (const Event& e : bug.events) {
    const bool acquired = (e.flags & kFailed) == 0;
    switch (e.op.kind) {
      case OpKind::MutexLock:
      case OpKind::RwWriteLock: holder[e.op.object] = e.thread; break;
      case OpKind::MutexTryLock:
      case OpKind::RwTryWriteLock:
        if (acquired) holder[e.op.object] = e.thread;
        break;
      case OpKind::MutexUnlock:
      case OpKind::RwUnlock: holder.erase(e.op.object); break;
      case OpKind::CondWait: holder.erase(cond_mutex(e.op)); break;
      case OpKind::CondWake: holder[cond_mutex(e.op)] = e.thread; break;
      default: break;
    }
  }
  for (const BlockedThread& b : bug.blocked) {
    if (b.op.kind == OpKind::ThreadJoin) {
      waits_for_[b.thread] = b.op.aux;
    } else if (auto it = holder.find(b.op.object); it != holder.end() && addresses_memory(b.op)) {
      waits_for_[b.thread] = it->second;
    }
  }
}

ThreadId WaitFor::holder(ThreadId waiting) const {
  auto it = waits_for_.find(waiting);
  return it == waits_for_.end() ? kNoThread : it->second;
}

// Following whom each waits for from `start` comes back to it (at most one hop per thread).
bool WaitFor::on_cycle(ThreadId start) const {
  ThreadId t = holder(start);
  for (std::size_t hops = 0; hops <= waits_for_.size() && t != start && t != kNoThread; ++hops)
    t = holder(t);
  return t == start;
}

std::vector<ThreadId> WaitFor::cycle() const {
  for (const auto& entry : waits_for_) {
    if (!on_cycle(entry.first)) continue;
    std::vector<ThreadId> ring{entry.first};
    for (ThreadId t = entry.second; t != entry.first; t = holder(t)) ring.push_back(t);
    return ring;
  }
  return {};
}

std::vector<ThreadId> WaitFor::in_cycles() const {
  std::vector<ThreadId> out;
  for (const auto& entry : waits_for_)
    if (on_cycle(entry.first)) out.push_back(entry.first);
  return out;
}

}  // namespace weft
