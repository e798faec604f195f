#include "strategy/dfs.hpp"

#include "strategy/preemption_bound.hpp"

namespace weft {

void DfsStrategy::expand(const Trace& trace) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  StateCache* cache = pruning_cache();
  if (cache) cache->scan(trace, tree_, first);
  // Within a bound, a state reached again with fewer preemptions has more below it.
  auto cost = [this](std::uint64_t preemptions) { return bound_ == kUnbounded ? 0 : preemptions; };
  std::uint64_t prefix = 0;  // preemptions before d
  for (std::size_t d = 0; d < first; ++d)
    if (records[d].kind == Decision::kThread)
      prefix += preemption_cost(records[d].current, records[d].current_enabled, records[d].choice);
  for (std::size_t d = first; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    std::size_t taken = 0;
    if (r.kind == Decision::kThread) {
      const auto enabled = tree_.enabled(r);
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        if (enabled[i] == r.choice) {
          taken = i;
        } else if (bound_ != kUnbounded &&
                   prefix + preemption_cost(r.current, r.current_enabled, enabled[i]) > bound_) {
          continue;
        } else if (!cache || !cache->covered(cache->option_key(d, i), cost(prefix))) {
          tree_.branch(d, enabled[i]);
        }
      }
      prefix += preemption_cost(r.current, r.current_enabled, r.choice);
    } else {
      taken = r.choice;
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice && (!cache || !cache->covered(cache->option_key(d, v), cost(prefix))))
          tree_.branch(d, v);
    }
    // A state explored before: what follows it was (or will be) explored from there.
    if (cache && cache->covered(cache->option_key(d, taken), cost(prefix))) break;
  }
  note_class(cache);
}

Coverage DfsStrategy::coverage() const {
  Coverage c;
  c.kind = bound_ == kUnbounded ? CoverageKind::kFull : CoverageKind::kPreemptionBound;
  c.executions = tree_.stats().executions;
  c.classes = cached_classes();
  const bool faithful = tree_.nondeterminism().empty();
  c.nondeterminism = tree_.nondeterminism();
  c.complete = exhausted() && faithful;
  if (c.complete && bound_ != kUnbounded) c.bound = static_cast<std::int64_t>(bound_);
  const std::string within =
      bound_ == kUnbounded ? "" : " with at most " + std::to_string(bound_) + " preemptions";
  if (!faithful)
    c.summary = tree_.no_claim("dfs: " + std::to_string(c.executions) + " executions");
  else if (c.complete)
    c.summary = "dfs: all " + std::to_string(c.executions) + " schedules" + within + " explored" +
                cache_summary();
  else
    c.summary = "dfs: " + std::to_string(c.executions) + " executions" + within + ", " +
                std::to_string(tree_.frontier_size()) + " known schedules still to run" +
                cache_summary();
  return c;
}

}  // namespace weft
