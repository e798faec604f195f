#include "strategy/dfs.hpp"

namespace weft {

void DfsStrategy::expand(const Trace&) {
  const auto records = tree_.decisions();
  for (std::size_t d = tree_.first_new_decision(); d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.kind == Decision::kThread) {
      for (ThreadId t : tree_.enabled(r))
        if (t != r.choice) tree_.branch(d, t);
    } else {
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice) tree_.branch(d, v);
    }
  }
}

Coverage DfsStrategy::coverage() const {
  Coverage c;
  c.kind = "full";
  c.executions = tree_.stats().executions;
  const bool faithful = tree_.nondeterminism().empty();
  c.complete = exhausted() && faithful;
  if (!faithful)
    c.summary = "dfs: " + std::to_string(c.executions) +
                " executions, but the program is not deterministic: no coverage claim";
  else if (c.complete)
    c.summary = "dfs: all " + std::to_string(c.executions) + " schedules explored";
  else
    c.summary = "dfs: " + std::to_string(c.executions) + " executions, " +
                std::to_string(tree_.frontier_size()) + " known schedules still to run";
  return c;
}

}  // namespace weft
