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

namespace {

// The log's block starts, for note_held(): open addressing, no allocation (it may run in
// a signal handler). Twice the log's capacity: at most half full. Empty between calls:
// each clears the slots it filled (g_filled), not the whole table.
constexpr std::size_t kStarts = 2 * AllocationLog::kCapacity;
std::uintptr_t g_starts[kStarts];
std::uint16_t g_filled[AllocationLog::kCapacity];

std::size_t start_slot(std::uintptr_t a) { return (a >> 4) * 0x9e3779b97f4a7c15ull >> 49; }
static_assert(kStarts == std::size_t{1} << 15, "start_slot() gives 15 bits");

// The slot holding `a`, or the empty one where it would go.
std::size_t find_start(std::uintptr_t a) {
  std::size_t slot = start_slot(a);
  while (g_starts[slot] != 0 && g_starts[slot] != a) slot = (slot + 1) % kStarts;
  return slot;
}

}  // namespace

void AllocationLog::note_held(const DataRange* data, std::size_t ranges) {
  nheld = 0;
  const std::uint64_t total = count.load(std::memory_order_acquire);
  const std::uint64_t n = total < kCapacity ? total : kCapacity;
  std::size_t filled = 0;
  for (std::uint64_t k = total - n; k < total; ++k) {
    const std::uintptr_t a = entries[k % kCapacity].address;
    const std::size_t slot = find_start(a);
    if (a == 0 || g_starts[slot] == a) continue;
    g_starts[slot] = a;
    g_filled[filled++] = static_cast<std::uint16_t>(slot);
  }
  for (std::size_t r = 0; r < ranges && filled != 0 && nheld < kMaxHeld; ++r)
    for (std::uintptr_t w = (data[r].begin + 7) & ~std::uintptr_t{7};
         w + 8 <= data[r].end && nheld < kMaxHeld; w += 8) {
      const std::uintptr_t v = *reinterpret_cast<const volatile std::uintptr_t*>(w);
      if (v == 0 || (v & 15) != 0) continue;  // blocks start 16-aligned
      if (g_starts[find_start(v)] == v) held[nheld++] = GlobalPointer{w, v};
    }
  for (std::size_t i = 0; i < filled; ++i) g_starts[g_filled[i]] = 0;
}

}  // namespace weft::rt
