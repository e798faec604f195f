#pragma once
// Code that runs without preemption (weft run --no-preempt-in, CHESS section 4.4.1): a
// thread whose next operation is in it, or called from it, keeps running while it can.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace weft::rt {

class CodeRanges {
 public:
  CodeRanges() = default;
  // [begin, end) ranges, sorted by begin and not overlapping.
  explicit CodeRanges(std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges)
      : ranges_(std::move(ranges)) {}
  bool empty() const { return ranges_.empty(); }
  bool contains(std::uintptr_t pc) const {
    auto it = std::upper_bound(ranges_.begin(), ranges_.end(), pc,
                               [](std::uintptr_t p, const auto& r) { return p < r.first; });
    return it != ranges_.begin() && pc < std::prev(it)->second;
  }

 private:
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges_;
};

}  // namespace weft::rt
