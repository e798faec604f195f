#include "report/object_history.hpp"

#include <algorithm>

#include "report/location.hpp"

namespace weft {
namespace {

// What a step did to the misused object, "" when it did nothing to it (a failed try, a
// wait on a condition variable is the mutex's release).
std::string verb(const Event& e, std::uintptr_t object) {
  if ((e.flags & kFailed) != 0) return {};
  if (cond_mutex(e.op) == object)
    return e.op.kind == OpKind::CondWait ? "released (pthread_cond_wait)"
                                         : "relocked (pthread_cond_wait)";
  if (e.op.object != object) return {};
  switch (e.op.kind) {
    case OpKind::MutexLock: return "locked";
    case OpKind::MutexTryLock: return "locked (trylock)";
    case OpKind::MutexUnlock: return "unlocked";
    case OpKind::CondWait: return "waited on";
    case OpKind::CondWake: return "woken from";
    case OpKind::CondSignal: return "signalled";
    case OpKind::CondBroadcast: return "broadcast";
    case OpKind::SemWait: return "waited on (took)";
    case OpKind::SemTryWait: return "took (trywait)";
    case OpKind::SemPost: return "posted";
    case OpKind::BarrierWait: return "arrived at";
    case OpKind::BarrierPass: return "passed";
    case OpKind::RwReadLock: return "read-locked";
    case OpKind::RwWriteLock: return "write-locked";
    case OpKind::RwTryReadLock: return "read-locked (trylock)";
    case OpKind::RwTryWriteLock: return "write-locked (trylock)";
    case OpKind::RwUnlock: return "unlocked";
    default: return {};
  }
}

}  // namespace

const char* ObjectHistory::noun(Misuse::Object kind) {
  switch (kind) {
    case Misuse::Object::kMutex: return "mutex";
    case Misuse::Object::kCondition: return "condition variable";
    case Misuse::Object::kSemaphore: return "semaphore";
    case Misuse::Object::kBarrier: return "barrier";
    case Misuse::Object::kRwLock: return "read-write lock";
  }
  return "object";
}

ObjectHistory::ObjectHistory(const BugRecord& bug, Symbolizer& symbolizer) {
  const Misuse& m = bug.misuse;
  if (m.object == 0) return;
  std::size_t n = bug.events.size();
  // The reported call itself, when it was a step.
  if (n > 0 && bug.events[n - 1].thread == bug.thread && bug.events[n - 1].op.object == m.object)
    --n;
  bool destroy_placed = m.destroyed_by == kNoThread;
  auto place_destroy = [&](std::uint64_t before) {
    if (destroy_placed || m.destroy_step > before) return;
    entries_.push_back({"destroyed", m.destroyed_by, m.destroy_step, true,
                        choose_location(m.destroy_pc, symbolizer)});
    destroy_placed = true;
  };
  for (std::size_t i = 0; i < n; ++i) {
    place_destroy(i);  // destroyed after step i (i steps taken)
    const Event& e = bug.events[i];
    std::string what = verb(e, m.object);
    if (what.empty()) continue;
    entries_.push_back({std::move(what), e.thread, i + 1, false, choose_location(e, symbolizer)});
  }
  place_destroy(~std::uint64_t{0});
  if (entries_.size() > kMaxEntries) {
    omitted_ = entries_.size() - kMaxEntries;
    entries_.erase(entries_.begin(), entries_.begin() + static_cast<std::ptrdiff_t>(omitted_));
  }
}

}  // namespace weft
