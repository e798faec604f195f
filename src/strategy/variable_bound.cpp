#include "strategy/variable_bound.hpp"

#include <algorithm>

#include "strategy/dependence.hpp"
#include "strategy/preemption_bound.hpp"

namespace weft {

VariableBoundStrategy::VariableBoundStrategy(std::uint32_t variables, std::uint64_t preemptions)
    : TreeStrategy(ExecutionTree::Options{.record_next_ops = true}),
      max_v_(variables),
      max_c_(preemptions),
      pending_((static_cast<std::size_t>(variables) + 1) * (preemptions + 1), 0),
      ran_(pending_.size(), 0) {
  pending_[0] = 1;  // the root: no preemption
}

bool VariableBoundStrategy::next_execution() {
  if (!TreeStrategy::next_execution()) return false;
  // The frontier gave one of the lowest level waiting.
  std::size_t l = 0;
  while (l < pending_.size() && pending_[l] == 0) ++l;
  if (l == pending_.size()) return true;  // cannot happen: every branch was counted
  --pending_[l];
  if (!tree_.probing()) ++ran_[l];
  current_v_ = static_cast<std::uint32_t>(l / (max_c_ + 1));
  current_c_ = l % (max_c_ + 1);
  return true;
}

void VariableBoundStrategy::save_extra(bool unfinished, StateWriter& w) const {
  std::vector<std::uint64_t> pending = pending_, ran = ran_;
  if (const std::size_t l = level(current_v_, current_c_); unfinished && l < pending.size()) {
    ++pending[l];
    if (!tree_.probing() && l < ran.size() && ran[l] != 0) --ran[l];
  }
  w.put_vector(pending);
  w.put_vector(ran);
  w.put(current_v_);
  w.put(current_c_);
  w.put(beyond_);
}

bool VariableBoundStrategy::load_extra(StateReader& r) {
  pending_ = r.get_vector();
  ran_ = r.get_vector();
  current_v_ = static_cast<std::uint32_t>(r.get_at_most(max_v_));
  current_c_ = r.get_at_most(max_c_);
  beyond_ = r.get();
  // The levels are this strategy's (v, c): the vectors have their size.
  return r.ok() && pending_.size() == ran_.size() && pending_.size() == level(max_v_, max_c_) + 1;
}

void VariableBoundStrategy::expand(const Trace&) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  std::uint64_t c = 0;
  variables_.clear();
  auto variable_at = [&](const ExecutionTree::Record& r) -> std::uint64_t {
    const auto enabled = tree_.enabled(r);
    const auto ops = tree_.next_ops(r);
    const std::size_t i = static_cast<std::size_t>(
        std::find(enabled.begin(), enabled.end(), r.current) - enabled.begin());
    if (i >= ops.size()) return 0;
    ObjectAccess acc[2];
    return object_accesses(r.current, ops[i], acc) != 0 ? acc[0].key : 0;
  };
  auto known = [&](std::uint64_t var) {
    return std::find(variables_.begin(), variables_.end(), var) != variables_.end();
  };
  for (std::size_t d = 0; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.kind == Decision::kValue) {
      if (d >= first)
        for (std::uint32_t v = 0; v < r.options; ++v)
          if (v != r.choice) {
            const std::size_t l = level(static_cast<std::uint32_t>(variables_.size()), c);
            if (tree_.branch(d, v, -static_cast<std::int64_t>(l))) ++pending_[l];
          }
      continue;
    }
    const bool preemptive = r.current_enabled;
    const std::uint64_t var = preemptive ? variable_at(r) : 0;
    if (d >= first) {
      for (ThreadId t : tree_.enabled(r)) {
        if (t == r.choice) continue;
        std::uint64_t c2 = c;
        std::size_t v2 = variables_.size();
        if (preemption_cost(r.current, r.current_enabled, t) != 0) {
          ++c2;
          if (!known(var)) ++v2;
        }
        if (c2 > max_c_ || v2 > max_v_) {
          ++beyond_;
          continue;
        }
        const std::size_t l = level(static_cast<std::uint32_t>(v2), c2);
        if (tree_.branch(d, t, -static_cast<std::int64_t>(l))) ++pending_[l];
      }
    }
    if (preemption_cost(r.current, r.current_enabled, r.choice) != 0) {
      ++c;
      if (!known(var)) variables_.push_back(var);
    }
  }
}

Coverage VariableBoundStrategy::coverage() const {
  Coverage cov;
  cov.kind = CoverageKind::kVariableBound;
  cov.executions = tree_.stats().executions;
  const std::string name = "vb:" + std::to_string(max_v_) + "," + std::to_string(max_c_) + ": ";
  if (!tree_.nondeterminism().empty()) {
    cov.summary = tree_.no_claim(name + std::to_string(cov.executions) + " executions");
    cov.nondeterminism = tree_.nondeterminism();
    return cov;
  }
  // The lowest level still open: the running execution's, or the frontier's.
  std::size_t open = exhausted()
                         ? pending_.size()
                         : (tree_.executing() ? level(current_v_, current_c_) : pending_.size());
  for (std::size_t l = 0; l < open; ++l)
    if (pending_[l] != 0) open = l;
  cov.complete = open == pending_.size();
  // Every (v, c) pair below the open level is complete; v is complete when all its c are.
  std::int64_t complete_v = -1;
  for (std::uint32_t v = 0; v <= max_v_ && level(v, max_c_) < open; ++v) complete_v = v;
  cov.bound = complete_v;
  std::string done;
  for (std::uint32_t v = 0; v <= max_v_; ++v) {
    std::int64_t best_c = -1;
    for (std::uint64_t c = 0; c <= max_c_ && level(v, c) < open; ++c)
      best_c = static_cast<std::int64_t>(c);
    if (best_c < 0) break;
    if (!done.empty()) done += ", ";
    done += "v=" + std::to_string(v) + " c<=" + std::to_string(best_c);
  }
  std::uint64_t executions_done = 0;
  for (std::size_t l = 0; l < open && l < ran_.size(); ++l) executions_done += ran_[l];
  if (cov.complete) {
    cov.summary = name + "all " + std::to_string(cov.executions) + " executions with at most " +
                  std::to_string(max_c_) + " preemptions at accesses to at most " +
                  std::to_string(max_v_) + " variables explored" +
                  (beyond_ == 0 ? ": every schedule, none beyond the bounds" : "");
  } else {
    cov.exploring_bound = static_cast<std::int64_t>(open / (max_c_ + 1));
    cov.exploring_executions = open < ran_.size() ? ran_[open] : 0;
    cov.summary = name + std::to_string(cov.executions) +
                  " executions; complete: " + (done.empty() ? "nothing yet" : done) + " (" +
                  std::to_string(executions_done) +
                  " executions); under way: v=" + std::to_string(open / (max_c_ + 1)) +
                  " c=" + std::to_string(open % (max_c_ + 1));
  }
  return cov;
}

}  // namespace weft
