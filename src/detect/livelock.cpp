#include "detect/livelock.hpp"

#include <algorithm>

namespace weft::detect {

bool changed_memory(const Event& e) {
  return (e.op.kind == OpKind::AtomicRmw || e.op.kind == OpKind::AtomicCas) &&
         (e.flags & kUnchanged) == 0;
}

bool progressing(std::span<const Event> window, std::span<const ThreadId> enabled) {
  bool synchronised = false;
  constexpr std::size_t kManyObjects = 16;
  std::uintptr_t changed[kManyObjects];
  std::size_t nchanged = 0;
  for (const Event& e : window) {
    if ((e.flags & kYielded) && !changed_memory(e)) return false;
    synchronised |= !is_memory_access(e.op.kind) && e.op.kind != OpKind::Fence &&
                    e.op.kind != OpKind::HbRelease && e.op.kind != OpKind::HbAcquire;
    const bool changes =
        e.op.kind == OpKind::Write || e.op.kind == OpKind::AtomicStore || changed_memory(e);
    if (changes && nchanged < kManyObjects &&
        std::find(changed, changed + nchanged, e.op.object) == changed + nchanged)
      changed[nchanged++] = e.op.object;
  }
  if (synchronised || nchanged == kManyObjects) return true;
  for (ThreadId t : enabled)
    if (std::none_of(window.begin(), window.end(), [&](const Event& e) { return e.thread == t; }))
      return false;
  return true;
}

Livelock describe_livelock(std::span<const Event> window, std::uint64_t max_steps, bool fair) {
  Livelock verdict;
  const std::string steps = std::to_string(max_steps);
  struct Runner {
    ThreadId thread;
    std::uint64_t steps = 0;
    bool yielded = false;
    Op last;
  };
  std::vector<Runner> runners;
  std::uint64_t writes = 0;  // steps that changed memory: a long run rather than a spin?
  for (const Event& e : window) {
    switch (e.op.kind) {
      case OpKind::AtomicStore:
      case OpKind::Write: ++writes; break;
      case OpKind::AtomicRmw:
      case OpKind::AtomicCas: writes += changed_memory(e); break;
      default: break;
    }
    auto it = std::find_if(runners.begin(), runners.end(),
                           [&](const Runner& r) { return r.thread == e.thread; });
    if (it == runners.end()) it = runners.insert(runners.end(), Runner{e.thread, 0, false, Op{}});
    ++it->steps;
    it->yielded |= (e.flags & kYielded) != 0;
    it->last = e.op;
  }
  std::sort(runners.begin(), runners.end(),
            [](const Runner& a, const Runner& b) { return a.thread < b.thread; });
  std::string who, selfish;
  for (const Runner& r : runners) {
    verdict.runners.push_back(BlockedThread{r.thread, r.last});
    who += (who.empty() ? "T" : ", T") + std::to_string(r.thread);
    if (!r.yielded) selfish += (selfish.empty() ? "T" : ", T") + std::to_string(r.thread);
  }
  const std::string last = "the last " + std::to_string(window.size()) + " steps";
  std::string& msg = verdict.message;
  if (!fair) {
    msg = "possible livelock: the execution exceeded " + steps +
          " steps (fair scheduling off: the schedule may just starve a thread); " + who +
          " ran in " + last;
  } else if (!selfish.empty()) {
    msg = "livelock: good-samaritan violation: " + selfish + " ran in " + last + " of " + steps +
          " without ever yielding, so a spin loop starves the thread it waits for";
  } else {
    msg = "livelock: the execution exceeded " + steps + " steps under fair scheduling; " + who +
          " kept running and yielding in " + last;
    // A spin waits and reads; a long computation keeps writing. Say which this looks like.
    msg += writes * 2 > window.size()
               ? ", most of them writing memory (" + std::to_string(writes) +
                     " writes): perhaps a long execution rather than a livelock; if it ends, "
                     "raise the bound (--steps)"
               : " without changing memory";
  }
  return verdict;
}

}  // namespace weft::detect
