#include "explore/fork_minimizer.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "core/schedule.hpp"
#include "explore/bug_identity.hpp"
#include "explore/replay_strategy.hpp"
#include "explore/stop_request.hpp"
#include "strategy/preemption_bound.hpp"
#include "strategy/schedule_simplifier.hpp"
#include "sys/os.hpp"

namespace weft::explorer {

bool worth_minimising(const BugRecord& b) {
  return b.preemptions() > 0 && b.kind != BugKind::kHang && b.kind != BugKind::kLivelock &&
         b.kind != BugKind::kWrongOutput;
}

bool minimise(MinimiseContext& c, BugRecord& found, const std::string& target,
              std::string* output) {
  ExplorationState& s = c.s;
  const ExplorationConfig& cfg = s.config;
  SharedHeader& h = s.region->header();
  const BugRecord first = found;
  const std::uint64_t since = os::monotonic_ns();
  auto limit_ns = static_cast<std::uint64_t>(cfg.minimize_time_s * 1e9);
  if (c.deadline_ns != 0)
    limit_ns = std::min(limit_ns, c.deadline_ns > since ? c.deadline_ns - since : 0);
  std::uint64_t ran = 0;
  bool stop = false;
  auto within_budget = [&] {
    return !stop && !StopRequest::made() && ran < cfg.minimize_executions &&
           os::monotonic_ns() - since < limit_ns;
  };
  // One execution under s.strategy; true when it shows the target bug with fewer
  // preemptions than `found` (or, `simpler`, as many in fewer thread switches), which it
  // then replaces. In the child (*child set), it returns at once, into the program.
  auto improves = [&](const char* by, bool* child, bool simpler = false) {
    const Executed e = c.executor.run_once(ran + 1, since + limit_ns);
    if (e.kind == Executed::Kind::kChild || e.kind == Executed::Kind::kFailed) {
      *child = e.kind == Executed::Kind::kChild;
      stop = true;
      return false;
    }
    ++ran;
    if (e.kind == Executed::Kind::kStopped) {
      stop = true;
      return false;
    }
    const Trace trace = c.executor.trace();
    if (h.error[0] != '\0' || !c.executor.feed(*s.strategy).empty()) {
      stop = true;
      return false;
    }
    s.strategy->execution_done(trace);
    if (!execution_failed(h, e.status, cfg.expected_exit)) return false;
    BugRecord b =
        read_failure(*s.region, e.status, c.fingerprint, by, 0, s.points, cfg.expected_exit);
    if (bug_identity(c.symbolizer, b) != target) return false;
    if (!simpler_schedule(b, found, simpler, cfg.steps)) return false;
    found = minimised(std::move(b), first);
    if (output != nullptr) *output = execution_output(s);
    return true;
  };
  bool child = false;
  Schedule schedule;
  std::string ignored;
  const std::uint64_t most = max_decisions_for(cfg.steps);
  if (decode_schedule(found.schedule, &schedule, &ignored, most)) {
    ScheduleSimplifier simplifier(schedule.decisions);
    std::vector<Decision> candidate;
    while (found.preemptions() > 0 && within_budget() && simplifier.next(&candidate)) {
      s.strategy = std::make_unique<GuidedStrategy>(candidate);
      s.strategy->next_execution();
      if (!improves("minimize", &child, /*simpler=*/true)) {
        if (child) return true;
        continue;
      }
      if (decode_schedule(found.schedule, &schedule, &ignored, most))
        simplifier.improved(schedule.decisions);
    }
  }
  if (found.preemptions() > 0 && within_budget()) {
    s.strategy = std::make_unique<PreemptionBoundStrategy>(found.preemptions() - 1);
    dynamic_cast<TreeStrategy&>(*s.strategy).set_state_cache(cfg.state_cache());
    while (within_budget() && s.strategy->next_execution()) {
      if (improves("pb", &child)) break;
      if (child) return true;
    }
  }
  found.minimize_executions = ran;
  found.found_preemptions = first.preemptions();
  found.found_steps = first.steps();
  return false;
}

}  // namespace weft::explorer
