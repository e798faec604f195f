#include "strategy/dfs.hpp"

namespace weft {

void DfsStrategy::expand(const Trace& trace) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  if (cache_) cache_->scan(trace, tree_, first);
  for (std::size_t d = first; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    std::size_t taken = 0;
    if (r.kind == Decision::kThread) {
      const auto enabled = tree_.enabled(r);
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        if (enabled[i] == r.choice) {
          taken = i;
        } else if (!cache_ || !cache_->covered(cache_->option_key(d, i), 0)) {
          tree_.branch(d, enabled[i]);
        }
      }
    } else {
      taken = r.choice;
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice && (!cache_ || !cache_->covered(cache_->option_key(d, v), 0)))
          tree_.branch(d, v);
    }
    // A state explored before: what follows it was (or will be) explored from there.
    if (cache_ && cache_->covered(cache_->option_key(d, taken), 0)) break;
  }
  if (cache_) cache_->note_class();
}

Coverage DfsStrategy::coverage() const {
  Coverage c;
  c.kind = "full";
  c.executions = tree_.stats().executions;
  if (cache_) c.classes = cache_->distinct_classes();
  const bool faithful = tree_.nondeterminism().empty();
  c.complete = exhausted() && faithful;
  if (!faithful)
    c.summary = "dfs: " + std::to_string(c.executions) +
                " executions, but the program is not deterministic: no coverage claim";
  else if (c.complete)
    c.summary = "dfs: all " + std::to_string(c.executions) + " schedules explored" +
                cache_summary();
  else
    c.summary = "dfs: " + std::to_string(c.executions) + " executions, " +
                std::to_string(tree_.frontier_size()) + " known schedules still to run" +
                cache_summary();
  return c;
}

}  // namespace weft
