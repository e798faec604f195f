#include "strategy/best_first.hpp"

#include <algorithm>

#include "strategy/preemption_bound.hpp"

namespace weft {

BestFirstStrategy::BestFirstStrategy(std::string name, std::vector<BfPriority> priorities,
                                     std::uint64_t bound, std::uint64_t seed)
    : DporStrategy(true),
      name_(std::move(name)),
      priorities_(std::move(priorities)),
      bound_(bound),
      rng_(seed) {}

ThreadId BestFirstStrategy::choose(const SchedulingPoint& p) {
  if (bound_ == kUnbounded) return DporStrategy::choose(p);
  // The bounded space is every execution within the bound, on the plain default (one
  // that avoided sleeping threads could preempt); sleep sets only inform `ss`.
  const ThreadId pick = tree_.choose_thread(p);
  sleep_.after_thread_decision(p, tree_.delta_siblings(), pick);
  return pick;
}

std::uint64_t BestFirstStrategy::cost_of(std::size_t decision, ThreadId thread) const {
  const ExecutionTree::Record& r = tree_.decisions()[decision];
  const std::uint64_t before = prefix_cost_[decision];
  if (r.kind != Decision::kThread) return before;
  return before + preemption_cost(r.current, r.current_enabled, thread);
}

int BestFirstStrategy::involved(std::size_t decision, ThreadId thread, const BfPriority& p) const {
  const ExecutionTree::Record& r = tree_.decisions()[decision];
  const auto enabled = tree_.enabled(r);
  const auto ops = tree_.next_ops(r);
  auto in = [&](ThreadId u) {
    const std::size_t i =
        static_cast<std::size_t>(std::find(enabled.begin(), enabled.end(), u) - enabled.begin());
    if (i >= ops.size()) return false;
    const Op& op = ops[i];
    if (p.kind == BfPriority::Kind::kVar)
      return in_ranges(p.ranges, op.object) || in_ranges(p.ranges, cond_mutex(op));
    if (in_ranges(p.ranges, op.pc)) return true;
    // The code that called into the library: the thread's next step in the trace carries
    // its callers.
    for (std::size_t k = r.step; trace_ != nullptr && k < trace_->size(); ++k) {
      const Event& e = (*trace_)[k];
      if (e.thread != u) continue;
      for (std::uintptr_t c : e.callers)
        if (c != 0 && in_ranges(p.ranges, c)) return true;
      break;
    }
    return false;
  };
  int n = in(thread) ? 1 : 0;
  if (r.current_enabled && thread != r.current && in(r.current)) ++n;
  return n;
}

std::int64_t BestFirstStrategy::priority_of(std::size_t decision, ThreadId thread, bool value,
                                            bool conservative, bool before_release) {
  std::int64_t key = 0;
  for (const BfPriority& p : priorities_) {
    std::int64_t level = 0;
    switch (p.kind) {
      case BfPriority::Kind::kPb:
        level = 4095 - static_cast<std::int64_t>(std::min<std::uint64_t>(
                           value ? prefix_cost_[decision] : cost_of(decision, thread), 4095));
        break;
      case BfPriority::Kind::kDpor:
      case BfPriority::Kind::kMdpor: {
        int cls = 2;
        if (bound_ != kUnbounded && !value) {
          const auto en = tree_.enabled(tree_.decisions()[decision]);
          const std::size_t i =
              static_cast<std::size_t>(std::find(en.begin(), en.end(), thread) - en.begin());
          cls = dpor_class_[class_first_[decision] + i];
        } else if (conservative || before_release) {
          cls = 1;
        }
        level = p.kind == BfPriority::Kind::kDpor ? (cls > 0) : cls;
        break;
      }
      case BfPriority::Kind::kSs: level = value || !sleep_.asleep(decision, thread) ? 1 : 0; break;
      case BfPriority::Kind::kRand: level = static_cast<std::int64_t>(rng_.below(4096)); break;
      case BfPriority::Kind::kMethod:
      case BfPriority::Kind::kVar: level = value ? 0 : involved(decision, thread, p); break;
    }
    key = key << 12 | level;
  }
  return key;
}

void BestFirstStrategy::classify(const Trace& trace) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  class_first_.assign(records.size(), 0);
  dpor_class_.clear();
  for (std::size_t d = 0; d < records.size(); ++d) {
    class_first_[d] = static_cast<std::uint32_t>(dpor_class_.size());
    dpor_class_.resize(dpor_class_.size() + tree_.enabled(records[d]).size(), 0);
  }
  if (priorities_.end() == std::find_if(priorities_.begin(), priorities_.end(), [](auto& p) {
        return p.kind == BfPriority::Kind::kDpor || p.kind == BfPriority::Kind::kMdpor;
      }))
    return;
  analysis_.analyze(trace, tree_, first > 0 ? first - 1 : 0, SleepSets::npos);
  for (const DporAnalysis::Race& race : analysis_.races()) {
    if (race.decision < first) continue;  // branches there were added by an ancestor
    const auto initials = analysis_.initials(race);
    const auto enabled = tree_.enabled(records[race.decision]);
    std::uint8_t* cls = &dpor_class_[class_first_[race.decision]];
    auto at = [&](ThreadId t) {
      return static_cast<std::size_t>(std::find(enabled.begin(), enabled.end(), t) -
                                      enabled.begin());
    };
    // The thread DporStrategy::reverse would add: the first enabled initial, else all.
    const auto it = std::find_if(initials.begin(), initials.end(),
                                 [&](ThreadId u) { return at(u) < enabled.size(); });
    if (it != initials.end()) {
      std::uint8_t& c = cls[at(*it)];
      c = std::max<std::uint8_t>(c, race.before_release ? 1 : 2);
    } else if (!initials.empty()) {
      for (std::size_t i = 0; i < enabled.size(); ++i) cls[i] = std::max<std::uint8_t>(cls[i], 1);
    }
  }
}

void BestFirstStrategy::save_extra(bool unfinished, StateWriter& w) const {
  DporStrategy::save_extra(unfinished, w);
  std::uint64_t state[4];
  rng_.state(state);
  for (std::uint64_t s : state) w.put(s);
  w.put(beyond_bound_);
  w.put(max_cost_);
}

bool BestFirstStrategy::load_extra(StateReader& r) {
  if (!DporStrategy::load_extra(r)) return false;
  std::uint64_t state[4];
  for (std::uint64_t& s : state) s = r.get();
  rng_.set_state(state);
  beyond_bound_ = r.get();
  max_cost_ = r.get();
  return r.ok();
}

void BestFirstStrategy::expand(const Trace& trace) {
  trace_ = &trace;
  const auto records = tree_.decisions();
  prefix_cost_.assign(records.size() + 1, 0);
  for (std::size_t d = 0; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    prefix_cost_[d + 1] =
        prefix_cost_[d] +
        (r.kind == Decision::kThread ? preemption_cost(r.current, r.current_enabled, r.choice) : 0);
  }
  max_cost_ = std::max(max_cost_, prefix_cost_.back());
  if (bound_ == kUnbounded)
    DporStrategy::expand(trace);
  else
    expand_bounded(trace);
  trace_ = nullptr;
}

// GAMBIT's FindBacktrackingPoints: every alternative of the new part within the bound.
void BestFirstStrategy::expand_bounded(const Trace& trace) {
  classify(trace);
  const auto records = tree_.decisions();
  for (std::size_t d = tree_.first_new_decision(); d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.kind == Decision::kValue) {
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice) tree_.branch(d, v, priority_of(d, v, true, false, false));
      continue;
    }
    for (ThreadId t : tree_.enabled(r)) {
      if (t == r.choice) continue;
      if (cost_of(d, t) > bound_) {
        ++beyond_bound_;
        continue;
      }
      tree_.branch(d, t, priority_of(d, t, false, false, false));
    }
  }
}

Coverage BestFirstStrategy::coverage() const {
  if (bound_ == kUnbounded) {
    Coverage c = DporStrategy::coverage();
    if (c.summary.rfind("dpor", 0) == 0) c.summary = name_ + c.summary.substr(4);
    return c;
  }
  Coverage c;
  c.kind = CoverageKind::kPreemptionBound;
  c.executions = tree_.stats().executions;
  const bool faithful = tree_.nondeterminism().empty();
  c.nondeterminism = tree_.nondeterminism();
  c.complete = exhausted() && faithful;
  const std::string within =
      "with at most " + std::to_string(bound_) + " preemption" + (bound_ == 1 ? "" : "s");
  if (!faithful) {
    c.summary = tree_.no_claim(name_ + ": " + std::to_string(c.executions) + " executions");
  } else if (c.complete) {
    c.bound = static_cast<std::int64_t>(bound_);
    c.summary =
        name_ + ": all " + std::to_string(c.executions) + " executions " + within + " explored" +
        (beyond_bound_ == 0 ? ": every schedule, none needs more than " + std::to_string(max_cost_)
                            : "");
  } else {
    c.exploring_bound = static_cast<std::int64_t>(bound_);
    c.exploring_executions = c.executions;
    c.summary = name_ + ": " + std::to_string(c.executions) + " executions " + within + ", " +
                std::to_string(tree_.frontier_size()) + " known still to run";
  }
  return c;
}

}  // namespace weft
