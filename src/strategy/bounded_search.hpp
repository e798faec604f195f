#pragma once
// Iterative bounding over the execution tree: the engine of preemption bounding (ICB,
// Musuvathi and Qadeer, PLDI 2007, Algorithm 1) and delay bounding (Emmi, Qadeer,
// Rakamaric, POPL 2011). A subclass says what one decision costs (a preemption, k
// delays); this class explores every execution of cost 0, then every one of cost 1, and
// so on, up to an optional limit.
//
// Why the tree suffices: a node's execution follows the default schedule after its own
// delta, and the default costs nothing, so a child's cost is its parent's plus the cost
// of the child's delta: costs only grow down the tree, and a branch beyond the limit can
// be dropped with its whole subtree. The frontier is ordered by priority = -cost, then
// depth-first: ICB's workQueue is the frontier's entries of the current cost, its
// nextWorkQueue those of higher costs. Memory follows the frontier, not the executions.
//
// Value decisions (timeouts, spurious wakeups) cost nothing: every bound explores every
// value, as dfs does. Each execution runs once (the tree's deltas are unique), and in
// order of cost: the first bug found has the least cost of all buggy executions.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "strategy/tree_strategy.hpp"

namespace weft {

// How far a bounded search has got: what a progress line shows.
struct BoundProgress {
  std::int64_t complete_bound = -1;       // largest bound fully explored (-1: none yet)
  std::uint64_t complete_executions = 0;  // executions of cost <= complete_bound
  // The bound under way (complete_bound + 1), or -1 when the search is over.
  std::int64_t exploring_bound = 0;
  std::uint64_t exploring_executions = 0;  // executions of that cost run so far
  std::uint64_t exploring_pending = 0;     // known ones still to run (more may appear)
  std::uint64_t executions = 0;            // all executions run
};

class BoundedSearch : public TreeStrategy {
 public:
  static constexpr std::uint64_t kUnbounded = ~std::uint64_t{0};

  bool next_execution() override;
  // kind: the subclass's ("preemption-bound", "delay-bound"). complete once bound 0 has
  // been explored entirely: bound is the largest bound fully explored, executions the
  // number of executions within it. While the next bound is under way, the summary says
  // how far it got, and exploring_bound / exploring_executions carry the same.
  Coverage coverage() const override;
  BoundProgress progress() const;

  std::uint64_t limit() const { return limit_; }        // kUnbounded: none
  std::uint64_t cost() const { return current_cost_; }  // of the last execution started
  // The most costly execution run so far.
  std::uint64_t max_cost() const { return max_cost_; }

 protected:
  struct Names {
    const char* strategy;  // "pb": the summary's prefix
    CoverageKind kind;     // CoverageKind::kPreemptionBound
    const char* unit;      // "preemption" (plural: + "s")
  };
  BoundedSearch(Names names, std::uint64_t limit);

  // What taking `choice` at thread decision `r` (whose enabled threads are `enabled`)
  // costs; the default choice must cost 0.
  virtual std::uint64_t decision_cost(const ExecutionTree::Record& r,
                                      std::span<const ThreadId> enabled, ThreadId choice) const = 0;

 private:
  void expand(const Trace& trace) final;
  void save_extra(bool unfinished, StateWriter& w) const final;
  bool load_extra(StateReader& r) final;
  // A branch's priority is minus its cost.
  void frontier_moved(std::int64_t priority, int delta) final {
    count_moved(pending_, priority, delta);
  }
  Coverage bound_coverage() const;  // coverage() without the state cache's line
  std::string units(std::uint64_t n) const;
  std::string within(std::uint64_t bound) const;  // "with at most 2 preemptions"

  Names names_;
  std::uint64_t limit_;
  // By cost: frontier entries waiting, executions started.
  std::vector<std::uint64_t> pending_;
  std::vector<std::uint64_t> ran_;
  std::uint64_t current_cost_ = 0;
  std::uint64_t max_cost_ = 0;
  std::uint64_t beyond_limit_ = 0;      // branches dropped for costing more than limit_
  std::uint64_t unreported_ = 0;        // executions whose end was never reported
  std::uint64_t first_unreported_ = 0;  // the first of them (1-based)
};

}  // namespace weft
