#include "strategy/dpor.hpp"

#include <algorithm>

namespace weft {

DporStrategy::DporStrategy(bool sleep_sets)
    : TreeStrategy(ExecutionTree::Options{.record_next_ops = true, .track_branches = true}),
      use_sleep_(sleep_sets) {}

void DporStrategy::save_extra(bool unfinished, StateWriter& w) const {
  // An unfinished execution's sleep-set block is counted again when it runs again.
  const bool blocked = unfinished && sleep_.blocked_step() != SleepSets::npos;
  w.put(sleep_.blocked_executions() - (blocked ? 1 : 0));
  w.put(unmodelled_);
  w.put(cancels_);
  w.put(conservative_);
  w.put(blocked_probes_);
}

bool DporStrategy::load_extra(StateReader& r) {
  sleep_.set_blocked_executions(r.get());
  unmodelled_ = r.get();
  cancels_ = r.get();
  conservative_ = r.get();
  blocked_probes_ = r.get();
  return r.ok();
}

bool DporStrategy::next_execution() {
  if (!TreeStrategy::next_execution()) return false;
  sleep_.start_execution();
  return true;
}

ThreadId DporStrategy::choose(const SchedulingPoint& p) {
  if (!use_sleep_) return tree_.choose_thread(p);
  if (p.regions && !regions_) {
    // Moves may span atomic regions: sleepers carry them. Which siblings' moves are known
    // then depends on what ran before (and is lost with a checkpoint), not on the tree
    // alone, so the default must not depend on who sleeps: every replay of a prefix must
    // take the same path (a sleeper run where another was awake: see expand()).
    regions_ = true;
    tree_.set_track_moves(true);
  }
  const ThreadId pick = tree_.choose_thread(p, regions_ ? kNoThread : sleep_.fallback(p));
  sleep_.after_thread_decision(p, tree_.delta_siblings(), pick, tree_.delta_sibling_moves());
  return pick;
}

std::size_t DporStrategy::choose_value(std::size_t n) {
  const std::size_t v = tree_.choose_value(n);
  if (use_sleep_) sleep_.after_value_decision();
  return v;
}

void DporStrategy::execution_done(const Trace& trace) {
  if (tree_.probing() && sleep_.blocked_step() != SleepSets::npos) ++blocked_probes_;
  TreeStrategy::execution_done(trace);
}

void DporStrategy::expand(const Trace& trace) {
  const auto records = tree_.decisions();
  const std::size_t first = tree_.first_new_decision();
  // Steps whose dependences the race analysis does not model: no claim of full coverage.
  for (const Event& e : trace.events())
    if (e.op.kind == OpKind::FdWait) {
      ++unmodelled_;
      break;
    } else if (e.op.kind == OpKind::ThreadCancel) {
      ++cancels_;
      break;
    }
  // Races first: their branches may hang from ancestors. The step taken at the node's own
  // delta is new, so its races are checked here; a sleep-set blocked execution ran nothing
  // new from the step it blocked at.
  analysis_.analyze(trace, tree_, first > 0 ? first - 1 : 0, sleep_.blocked_step());
  for (const DporAnalysis::Race& race : analysis_.races()) reverse(race);
  // Blocked by running a sleeper where a thread was awake (only when the default does not
  // avoid sleepers): what the awake thread would run from there is still to explore.
  if (const ThreadId awake = sleep_.blocked_alternative(); awake != kNoThread)
    tree_.branch(sleep_.blocked_decision(), awake,
                 priority_of(sleep_.blocked_decision(), awake, false, false, false));
  // Every value of a data choice in the new part (a sleep-set blocked execution adds
  // nothing after the step it blocked at: what follows was explored elsewhere).
  for (std::size_t d = first; d < records.size(); ++d) {
    const ExecutionTree::Record& r = records[d];
    if (r.step >= sleep_.blocked_step()) break;
    if (r.kind == Decision::kValue)
      for (std::uint32_t v = 0; v < r.options; ++v)
        if (v != r.choice) tree_.branch(d, v, priority_of(d, v, true, false, false));
  }
}

// Source-DPOR's step: unless one of the race's initials is explored at its state (run
// there, branched to, or asleep: explored from an earlier state), add one, the racing
// thread itself when it is an enabled initial. When no initial is enabled there (its step
// waits for something weft does not see as dependent, such as fairness), every enabled
// thread is added: coverage over economy.
void DporStrategy::reverse(const DporAnalysis::Race& race) {
  const auto initials = analysis_.initials(race);
  for (ThreadId u : initials)
    if (tree_.has_branch(race.decision, u) || asleep(race.decision, u)) return;
  if (initials.empty()) return;
  const ExecutionTree::Record& r = tree_.decisions()[race.decision];
  const auto enabled = tree_.enabled(r);
  for (ThreadId u : initials)
    if (std::find(enabled.begin(), enabled.end(), u) != enabled.end()) {
      tree_.branch(race.decision, u,
                   priority_of(race.decision, u, false, false, race.before_release));
      return;
    }
  ++conservative_;
  for (ThreadId t : enabled)
    if (!asleep(race.decision, t))
      tree_.branch(race.decision, t,
                   priority_of(race.decision, t, false, true, race.before_release));
}

std::string DporStrategy::counts() const {
  const std::uint64_t executions = tree_.stats().executions;
  const std::uint64_t redundant = redundant_executions();
  return std::to_string(executions) + " executions, " + std::to_string(executions - redundant) +
         " happens-before classes, " + std::to_string(redundant) + " redundant (sleep-set blocked)";
}

Coverage DporStrategy::coverage() const {
  Coverage c;
  c.kind = CoverageKind::kFull;
  c.executions = tree_.stats().executions;
  c.classes = c.executions - redundant_executions();
  const bool faithful = tree_.nondeterminism().empty();
  c.nondeterminism = tree_.nondeterminism();
  c.complete = exhausted() && faithful && unmodelled_ == 0 && cancels_ == 0;
  if (!faithful)
    c.summary = tree_.no_claim("dpor: " + counts());
  else if (unmodelled_ != 0)
    c.summary = "dpor: " + counts() +
                ", but threads wait on file descriptors other threads "
                "feed outside weft's view: no coverage claim";
  else if (cancels_ != 0)
    c.summary = "dpor: " + counts() +
                ", but the program cancels threads (pthread_cancel), "
                "whose timing the race analysis does not follow: no coverage claim (dfs or "
                "pb cover it)";
  else if (c.complete)
    c.summary = "dpor: every happens-before class explored: " + counts();
  else
    c.summary = "dpor: " + counts() + ", " + std::to_string(tree_.frontier_size()) +
                " known executions still to run";
  return c;
}

}  // namespace weft
