#include "strategy/tree_strategy.hpp"

namespace weft {

bool TreeStrategy::next_execution() {
  // An execution that never reported its end adds nothing: release it and move on.
  if (tree_.executing()) tree_.finish_execution();
  if (exhausted_) return false;
  exhausted_ = !tree_.start_execution();
  return !exhausted_;
}

void TreeStrategy::execution_done(const Trace& trace) {
  if (!tree_.executing()) return;
  expand(trace);
  tree_.finish_execution();
}

}  // namespace weft
