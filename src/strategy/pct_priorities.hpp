#pragma once
// The thread priorities of PCT (Burckhardt et al., ASPLOS'10), shared by pct and pctvb:
// distinct random initial priorities d, d+1, ..., d+n-1 (a thread that appears later takes
// a uniformly random place, which keeps them a uniformly random permutation), the enabled
// thread of highest priority runs, and at change point i the thread that ran drops to
// priority i, below every initial one.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "core/scheduling_point.hpp"

namespace weft {

class PctPriorities {
 public:
  explicit PctPriorities(std::uint32_t depth) : depth_(depth) {}

  void reset() {
    rank_.clear();
    lowered_.clear();
  }
  std::size_t threads() const { return rank_.size(); }

  // Threads are numbered in creation order, so the new ones are always the next ids.
  void learn_threads(const SchedulingPoint& p, Rng& rng) {
    std::size_t n = std::max<std::size_t>(p.thread_count, p.enabled.back() + 1);
    while (rank_.size() < n) {
      const auto m = static_cast<std::uint32_t>(rank_.size());
      const auto place = m == 0 ? 0 : static_cast<std::uint32_t>(rng.below(m + 1));
      for (std::uint32_t& r : rank_)
        if (r >= place) ++r;
      rank_.push_back(place);
      lowered_.push_back(0);
    }
  }
  // Change point `i`: thread t drops to priority i.
  void lower(ThreadId t, std::uint32_t i) {
    if (t != kNoThread && t < lowered_.size()) lowered_[t] = i;
  }
  // The enabled thread of highest priority.
  ThreadId highest(const SchedulingPoint& p) const {
    ThreadId best = p.enabled.front();
    std::uint64_t best_priority = priority(best);
    for (ThreadId t : p.enabled.subspan(1)) {
      const std::uint64_t pr = priority(t);
      if (pr > best_priority) {
        best = t;
        best_priority = pr;
      }
    }
    return best;
  }

 private:
  std::uint64_t priority(ThreadId t) const {
    return lowered_[t] != 0 ? lowered_[t] : depth_ + rank_[t];
  }

  std::uint32_t depth_;
  // rank_: place of a thread's initial priority among the threads known so far (0
  // lowest); lowered_: 0, or the priority i it dropped to at change point i.
  std::vector<std::uint32_t> rank_;
  std::vector<std::uint32_t> lowered_;
};

}  // namespace weft
