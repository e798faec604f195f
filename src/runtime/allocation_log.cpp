#include "runtime/allocation_log.hpp"

#include <algorithm>

namespace weft::rt {
namespace {

struct Touch {
  std::uintptr_t address;
  std::uint64_t step;  // a step that touched it
  bool claimed = false;
};

}  // namespace

std::vector<Allocation> AllocationLog::touched_by(const BugRecord& bug) const {
  std::vector<Touch> touches;
  const std::uint64_t end = bug.events.size();
  for (std::uint64_t i = 0; i < bug.events.size(); ++i)
    if (addresses_memory(bug.events[i].op)) touches.push_back({bug.events[i].op.object, i});
  for (const BlockedThread& b : bug.blocked)
    if (addresses_memory(b.op)) touches.push_back({b.op.object, end});
  if (bug.has_race) touches.push_back({bug.race.address, end});
  if (touches.empty()) return {};
  std::sort(touches.begin(), touches.end(), [](const Touch& a, const Touch& b) {
    return a.address != b.address ? a.address < b.address : a.step < b.step;
  });
  touches.erase(std::unique(touches.begin(), touches.end(),
                            [](const Touch& a, const Touch& b) {
                              return a.address == b.address && a.step == b.step;
                            }),
                touches.end());

  const std::uint64_t n = std::min(count.load(std::memory_order_acquire), kCapacity);
  const std::uint64_t first = count.load(std::memory_order_acquire) - n;
  std::vector<Allocation> used;
  // Newest first: each touch belongs to the newest block allocated before it that holds
  // its address (memory freed and allocated again is another block).
  for (std::uint64_t k = first + n; k-- > first;) {
    const Allocation& a = entries[k % kCapacity];
    if (a.size == 0) continue;
    auto it = std::lower_bound(touches.begin(), touches.end(), a.address,
                               [](const Touch& t, std::uintptr_t x) { return t.address < x; });
    bool holds = false;
    for (; it != touches.end() && it->address - a.address < a.size; ++it) {
      if (it->claimed || a.step > it->step) continue;
      it->claimed = true;
      holds = true;
    }
    if (holds) used.push_back(a);
  }
  std::reverse(used.begin(), used.end());
  return used;
}

}  // namespace weft::rt
