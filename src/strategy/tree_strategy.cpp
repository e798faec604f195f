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

std::string TreeStrategy::cache_summary() const {
  if (!cache_) return "";
  return "; " + std::to_string(cache_->distinct_classes()) + " happens-before class" +
         (cache_->distinct_classes() == 1 ? "" : "es") + ", " +
         std::to_string(cache_->pruned()) + " branch" + (cache_->pruned() == 1 ? "" : "es") +
         " pruned by state caching";
}

}  // namespace weft
