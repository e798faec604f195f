#pragma once
// Which instrumented plain accesses are scheduling points (--preempt-on), and the set of
// code locations known to race that `racy` makes points (CHESS section 3.5: a data race
// found in one execution becomes a place to preempt in the next).
#include <algorithm>
#include <cstdint>
#include <vector>

namespace weft::rt {

enum class PreemptOn : std::uint8_t {
  kSync,  // only synchronisation (atomics, locks, ...) is a scheduling point
  kRacy,  // ...and plain accesses at locations known to race
  kAll,   // ...and every instrumented plain access
};

// What a search's claim is about (Coverage::points): which operations were scheduling
// points. Without race detection no access is learnt racy; without instrumentation none
// is seen at all.
inline const char* claimed_points(PreemptOn on, bool races_on, bool instrumented) {
  if (!instrumented) return "sync";
  if (on == PreemptOn::kAll) return "every-access";
  return on == PreemptOn::kRacy && races_on ? "racy" : "sync";
}

// A small sorted set of pcs: looked up on every instrumented access in racy mode.
class RacyPoints {
 public:
  bool contains(std::uintptr_t pc) const {
    return !pcs_.empty() && std::binary_search(pcs_.begin(), pcs_.end(), pc);
  }
  // false when it was there already.
  bool add(std::uintptr_t pc) {
    auto it = std::lower_bound(pcs_.begin(), pcs_.end(), pc);
    if (it != pcs_.end() && *it == pc) return false;
    pcs_.insert(it, pc);
    return true;
  }
  const std::vector<std::uintptr_t>& pcs() const { return pcs_; }
  bool empty() const { return pcs_.empty(); }

 private:
  std::vector<std::uintptr_t> pcs_;
};

}  // namespace weft::rt
