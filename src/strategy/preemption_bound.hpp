#pragma once
// Iterative preemption bounding (ICB: Musuvathi and Qadeer, "Iterative Context Bounding
// for Systematic Testing of Multithreaded Programs", PLDI 2007, Algorithm 1): every
// execution with 0 preemptions, then every one with 1, and so on, up to an optional
// bound c. A preemption is a switch away from a thread that could have continued
// (SchedulingPoint::current_enabled, and another thread runs); a switch where the running
// thread blocks or ends is free, so every bound reaches the end of every execution.
//
// With n threads of k steps, at most b of them blocking, there are at most
// C(nk, c) (nb + c)! executions with c preemptions (the paper's Theorem 1): polynomial in
// k. The first bug found has the fewest preemptions of any buggy execution.
#include "strategy/bounded_search.hpp"

namespace weft {

// What choosing `choice` costs at a point where `current` ran last: 1 if it preempts it.
inline std::uint64_t preemption_cost(ThreadId current, bool current_enabled, ThreadId choice) {
  return current_enabled && choice != current ? 1 : 0;
}

class PreemptionBoundStrategy final : public BoundedSearch {
 public:
  // bound: the most preemptions an execution may have (kUnbounded: iterate for ever, i.e.
  // until every schedule has run). Coverage kind "preemption-bound".
  explicit PreemptionBoundStrategy(std::uint64_t bound = kUnbounded)
      : BoundedSearch({"pb", CoverageKind::kPreemptionBound, "preemption"}, bound) {}

 private:
  std::uint64_t decision_cost(const ExecutionTree::Record& r, std::span<const ThreadId>,
                              ThreadId choice) const override {
    return preemption_cost(r.current, r.current_enabled, choice);
  }
};

}  // namespace weft
