#pragma once
// Exhaustive depth-first search of the schedule space (Godefroid's stateless search, as
// CHESS runs it without a bound), over GAMBIT's execution tree (Coons, Burckhardt,
// Musuvathi, PPoPP 2010, section 3.2): after each execution, every decision it made on
// its own (after its delta) branches into every other option, deepest first.
#include "strategy/tree_strategy.hpp"

namespace weft {

class DfsStrategy final : public TreeStrategy {
 public:
  DfsStrategy() = default;
  // kind "full"; complete once every schedule has run (and the program replayed
  // faithfully: see nondeterminism()).
  Coverage coverage() const override;

 private:
  void expand(const Trace& trace) override;
};

}  // namespace weft
