#pragma once
// vb:<v>[,<c>]: variable bounding for systematic search (Bindal, Bansal, Lal, "Variable
// and Thread Bounding for Systematic Testing of Multithreaded Programs", ISSTA'13,
// section 2; its exhaustive VT-CHESS search): preemptions only at accesses to at most v
// distinct variables, and at most c preemptions (default 2).
//
// The variable of a preemption is the object the preempted thread was about to touch
// (weft's scheduling points come before each access; the paper's come after, the same
// interleavings). Rather than enumerating every v-subset of the program's variables up
// front, the variables are chosen dynamically: an execution's first preemptions pick them,
// and an execution whose preemptions touch more than v variables is never run, which
// covers every subset at once without repeating an execution.
//
// The search is iterated: every execution with variable bound 0 (no preemption), then
// variable bound 1 with 1, 2, ..., c preemptions, then variable bound 2, ...; the
// coverage says which (c, v) pairs are complete. Value decisions (timeouts, spurious
// wakeups) cost nothing, as in pb.
#include <cstdint>
#include <vector>

#include "strategy/tree_strategy.hpp"

namespace weft {

class VariableBoundStrategy final : public TreeStrategy {
 public:
  static constexpr std::uint64_t kDefaultVariables = 2;  // most bugs involve one or two
  static constexpr std::uint64_t kDefaultPreemptions = 2;
  VariableBoundStrategy(std::uint32_t variables, std::uint64_t preemptions);
  bool next_execution() override;
  Coverage coverage() const override;
  bool uses_state_cache() const override { return false; }

  // The (v, c) level of the last execution started.
  std::uint32_t variables_used() const { return current_v_; }
  std::uint64_t preemptions_used() const { return current_c_; }

 private:
  void expand(const Trace& trace) override;
  void save_extra(bool unfinished, StateWriter& w) const override;
  bool load_extra(StateReader& r) override;
  // A branch's priority is minus its level.
  void frontier_moved(std::int64_t priority, int delta) override {
    count_moved(pending_, priority, delta);
  }
  std::size_t level(std::uint32_t v, std::uint64_t c) const {
    return static_cast<std::size_t>(v) * (max_c_ + 1) + c;
  }

  std::uint32_t max_v_;
  std::uint64_t max_c_;
  std::vector<std::uint64_t> pending_;  // frontier entries per level
  std::vector<std::uint64_t> ran_;      // executions started per level
  std::uint32_t current_v_ = 0;
  std::uint64_t current_c_ = 0;
  std::uint64_t beyond_ = 0;              // branches dropped for exceeding a bound
  std::vector<std::uint64_t> variables_;  // scratch: the prefix's preemption variables
};

}  // namespace weft
