#include "strategy/bounded_search.hpp"

#include <algorithm>

namespace weft {

namespace {

std::string count(std::uint64_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// "all 7 executions", "the 1 execution"
std::string all_executions(std::uint64_t n) {
  return (n == 1 ? "the " : "all ") + count(n, "execution");
}

void add(std::vector<std::uint64_t>& by_cost, std::uint64_t cost) {
  if (by_cost.size() <= cost) by_cost.resize(cost + 1, 0);
  ++by_cost[cost];
}

}  // namespace

BoundedSearch::BoundedSearch(Names names, std::uint64_t limit)
    : names_(names), limit_(limit), pending_{1} /* the root, of cost 0 */ {}

bool BoundedSearch::next_execution() {
  // An execution that never reported its end added no branches: what lies below it is
  // unknown, so no bound can be claimed any more.
  if (tree_.executing() && unreported_++ == 0) first_unreported_ = tree_.stats().executions;
  if (!TreeStrategy::next_execution()) return false;
  // The frontier gave its best entry, one of the least cost waiting.
  std::uint64_t c = 0;
  while (pending_[c] == 0) ++c;
  --pending_[c];
  if (!tree_.probing()) add(ran_, c);
  current_cost_ = c;
  max_cost_ = std::max(max_cost_, c);
  return true;
}

// An unfinished execution is saved as not started: its cost waits again, not run.
void BoundedSearch::save_extra(bool unfinished, StateWriter& w) const {
  std::vector<std::uint64_t> pending = pending_, ran = ran_;
  if (unfinished) {
    if (pending.size() <= current_cost_) pending.resize(current_cost_ + 1, 0);
    ++pending[current_cost_];
    if (!tree_.probing() && current_cost_ < ran.size() && ran[current_cost_] != 0)
      --ran[current_cost_];
  }
  w.put_vector(pending);
  w.put_vector(ran);
  w.put(current_cost_);
  w.put(max_cost_);
  w.put(beyond_limit_);
  w.put(unreported_);
  w.put(first_unreported_);
}

bool BoundedSearch::load_extra(StateReader& r) {
  pending_ = r.get_vector();
  ran_ = r.get_vector();
  current_cost_ = r.get();
  max_cost_ = r.get();
  beyond_limit_ = r.get();
  unreported_ = r.get();
  first_unreported_ = r.get();
  // next_execution() looks for a waiting cost: one must be counted for each frontier entry.
  std::uint64_t waiting = 0;
  for (std::uint64_t n : pending_) waiting += n;
  return r.ok() && waiting == tree_.frontier_size();
}

void BoundedSearch::expand(const Trace& trace) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  // A state explored before at no higher cost: what follows it needs nothing more.
  StateCache* cache = pruning_cache();
  if (cache) cache->scan(trace, tree_, first);
  auto covered = [&](std::size_t d, std::size_t i, std::uint64_t cost) {
    return cache && cache->covered(cache->option_key(d, i), cost);
  };
  std::uint64_t prefix = 0;  // the cost of the decisions before d
  for (std::size_t d = 0; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.kind == Decision::kThread) {
      const auto enabled = tree_.enabled(r);
      std::size_t taken = 0;
      for (std::size_t i = 0; i < enabled.size(); ++i) {
        const ThreadId t = enabled[i];
        if (t == r.choice) {
          taken = i;
          continue;
        }
        if (d < first) continue;
        const std::uint64_t c = prefix + decision_cost(r, enabled, t);
        if (c > limit_) {
          ++beyond_limit_;
          continue;
        }
        if (!covered(d, i, c) && tree_.branch(d, t, -static_cast<std::int64_t>(c)))
          add(pending_, c);
      }
      prefix += decision_cost(r, enabled, r.choice);
      if (d >= first && covered(d, taken, prefix)) break;
    } else if (d >= first && prefix <= limit_) {
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice && !covered(d, v, prefix) &&
            tree_.branch(d, v, -static_cast<std::int64_t>(prefix)))
          add(pending_, prefix);
      if (covered(d, r.choice, prefix)) break;
    }
  }
  note_class(cache);
}

BoundProgress BoundedSearch::progress() const {
  BoundProgress p;
  p.executions = tree_.stats().executions;
  // The least cost with executions still to run: the running one's, or the frontier's.
  std::uint64_t open = tree_.executing() ? current_cost_ : kUnbounded;
  for (std::uint64_t c = 0; c < pending_.size() && c < open; ++c)
    if (pending_[c] != 0) open = c;
  if (open == kUnbounded) {  // the search is over
    p.complete_bound = static_cast<std::int64_t>(limit_ != kUnbounded ? limit_ : max_cost_);
    p.complete_executions = p.executions;
    p.exploring_bound = -1;
    return p;
  }
  p.complete_bound = static_cast<std::int64_t>(open) - 1;
  for (std::uint64_t c = 0; c < open && c < ran_.size(); ++c) p.complete_executions += ran_[c];
  p.exploring_bound = static_cast<std::int64_t>(open);
  p.exploring_executions = open < ran_.size() ? ran_[open] : 0;
  p.exploring_pending = open < pending_.size() ? pending_[open] : 0;
  return p;
}

std::string BoundedSearch::units(std::uint64_t n) const { return count(n, names_.unit); }

std::string BoundedSearch::within(std::uint64_t bound) const {
  return "with at most " + units(bound);
}

Coverage BoundedSearch::coverage() const {
  Coverage c = bound_coverage();
  c.summary += cache_summary();
  c.classes = cached_classes();
  return c;
}

Coverage BoundedSearch::bound_coverage() const {
  Coverage c;
  c.kind = names_.kind;
  const BoundProgress p = progress();
  const std::string name = std::string(names_.strategy) + ": ";
  if (!tree_.nondeterminism().empty()) {
    c.executions = p.executions;
    c.summary = tree_.no_claim(name + count(p.executions, "execution"));
    c.nondeterminism = tree_.nondeterminism();
    return c;
  }
  if (unreported_ != 0) {
    c.executions = p.executions;
    c.summary = name + count(p.executions, "execution") + ", but execution " +
                std::to_string(first_unreported_) + " never reported its end: no coverage claim";
    return c;
  }
  c.bound = p.complete_bound;
  c.complete = p.complete_bound >= 0;
  c.executions = c.complete ? p.complete_executions : p.executions;
  c.exploring_bound = p.exploring_bound;
  c.exploring_executions = p.exploring_executions;

  if (p.exploring_bound < 0) {
    if (limit_ == kUnbounded)
      c.summary = name + all_executions(p.executions) +
                  " explored: every schedule, none with more than " + units(max_cost_);
    else if (beyond_limit_ == 0)
      c.summary = name + all_executions(p.executions) + " " + within(limit_) +
                  " explored: every schedule, none needs more than " + std::to_string(max_cost_);
    else
      c.summary = name + all_executions(p.executions) + " " + within(limit_) + " explored";
    return c;
  }
  const std::string under_way = "bound " + std::to_string(p.exploring_bound) +
                                " under way: " + count(p.exploring_executions, "execution") +
                                " run, " + std::to_string(p.exploring_pending) +
                                " known still to run";
  if (c.complete)
    c.summary = name + all_executions(p.complete_executions) + " " +
                within(static_cast<std::uint64_t>(p.complete_bound)) + " explored; " + under_way;
  else
    c.summary = name + under_way;
  return c;
}

}  // namespace weft
