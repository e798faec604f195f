#pragma once
// Iterative delay bounding (Emmi, Qadeer, Rakamaric, "Delay-Bounded Scheduling", POPL
// 2011): deviate at most d times from a deterministic scheduler, here the non-preemptive
// round-robin default_choice(). A delay skips the thread the scheduler would run to the
// next enabled one in round-robin order, so running the k-th enabled thread after the
// default costs k delays. Every execution with 0 delays (the default one), then every one
// with 1, and so on, up to an optional bound d. Unlike a preemption, a delay is also
// counted where the running thread blocked or ended (the round-robin successor is
// skipped), and a preemption to the thread after the current one costs only 1.
#include <span>

#include "strategy/bounded_search.hpp"

namespace weft {

// The delays that running `choice` costs at a point where the default scheduler would run
// default_choice(p): its distance from that thread in round-robin order over p.enabled.
std::uint64_t delay_cost(const SchedulingPoint& p, ThreadId choice);

class DelayBoundStrategy final : public BoundedSearch {
 public:
  // bound: the most delays an execution may have (kUnbounded: until every schedule has
  // run). Coverage kind "delay-bound".
  explicit DelayBoundStrategy(std::uint64_t bound = kUnbounded)
      : BoundedSearch({"db", CoverageKind::kDelayBound, "delay"}, bound) {}

 private:
  std::uint64_t decision_cost(const ExecutionTree::Record& r, std::span<const ThreadId> enabled,
                              ThreadId choice) const override;
};

}  // namespace weft
