#pragma once
// Exhaustive depth-first search of the schedule space (Godefroid's stateless search, as
// CHESS runs it without a bound), over GAMBIT's execution tree (Coons, Burckhardt,
// Musuvathi, PPoPP 2010, section 3.2): after each execution, every decision it made on
// its own (after its delta) branches into every other option, deepest first.
#include "strategy/tree_strategy.hpp"

namespace weft {

// With a preemption bound (--bound pb:<c>), only the executions with at most c
// preemptions, still depth first (GAMBIT Table 2's "dfs, bounded"; pb visits the same
// space by increasing preemptions).
class DfsStrategy final : public TreeStrategy {
 public:
  static constexpr std::uint64_t kUnbounded = ~std::uint64_t{0};
  explicit DfsStrategy(std::uint64_t bound = kUnbounded) : bound_(bound) {}
  // kind "full" ("preemption-bound" with a bound); complete once every schedule has run
  // (and the program replayed faithfully: see nondeterminism()).
  Coverage coverage() const override;

 private:
  void expand(const Trace& trace) override;

  std::uint64_t bound_;
};

}  // namespace weft
