#include "explore/in_process_minimizer.hpp"

#include <string>
#include <vector>

#include "core/schedule.hpp"
#include "explore/bug_identity.hpp"
#include "explore/explorer.hpp"
#include "sys/os.hpp"
#include "strategy/schedule_simplifier.hpp"

namespace weft::explorer {

namespace {

bool worth_minimising(const RunRecord& run) {
  if (run.bugs.empty() || !run.error.empty()) return false;
  // Preemption bounding ran every schedule of fewer preemptions before its find.
  if (run.strategy == "pb" || run.strategy.starts_with("pb:")) return false;
  const BugRecord& b = run.bugs[0];
  return b.preemptions() > 0 && b.kind != BugKind::kHang && b.kind != BugKind::kLivelock;
}

}  // namespace

void minimize_first_bug(const std::function<void()>& body, std::uint64_t fingerprint,
                        const Options& options, const MinimizeBudget& budget, RunRecord* run) {
  if (!worth_minimising(*run)) return;
  BugRecord& found = run->bugs[0];
  const BugRecord first = found;
  const std::string target = bug_key(first);
  Schedule schedule;
  std::string error;
  const std::uint64_t most = max_decisions_for(options.max_steps);
  if (!decode_schedule(first.schedule, &schedule, &error, most)) return;

  const std::uint64_t deadline =
      os::monotonic_ns() + static_cast<std::uint64_t>(budget.seconds * 1e9);
  std::uint64_t ran = 0;
  auto left = [&] { return ran < budget.executions && os::monotonic_ns() < deadline; };
  // A try's first bug, when it is the same one in a simpler schedule, replaces `found`.
  auto improves = [&](RunRecord tried, bool simpler) {
    if (!tried.error.empty() || tried.bugs.empty()) return false;
    BugRecord& b = tried.bugs[0];
    if (bug_key(b) != target || !simpler_schedule(b, found, simpler, options.max_steps))
      return false;
    found = minimised(std::move(b), first);
    return true;
  };

  // Each candidate a child that follows it as far as the program does.
  ScheduleSimplifier simplifier(schedule.decisions);
  std::vector<Decision> candidate;
  while (found.preemptions() > 0 && left() && simplifier.next(&candidate)) {
    Schedule guide = schedule;
    guide.decisions = candidate;
    ++ran;
    if (!improves(run_in_process(body, fingerprint, options, &guide, /*guided=*/true), true))
      continue;
    Schedule better;
    if (decode_schedule(found.schedule, &better, &error, most))
      simplifier.improved(better.decisions);
  }
  // Then every schedule of fewer preemptions, fewest first, in one child, until a bug.
  const std::uint64_t now = os::monotonic_ns();
  if (found.preemptions() > 0 && left() && deadline - now > 1000000) {
    Options bounded = options;
    bounded.strategy = "pb:" + std::to_string(found.preemptions() - 1);
    bounded.executions = budget.executions - ran;
    bounded.time_limit_s = static_cast<double>(deadline - now) / 1e9;
    bounded.shard.clear();
    bounded.checkpoint.clear();
    RunRecord tried = run_in_process(body, fingerprint, bounded, nullptr);
    ran += tried.executions;
    improves(std::move(tried), false);
  }
  found.minimize_executions = ran;
  found.found_preemptions = first.preemptions();
  found.found_steps = first.steps();
}

}  // namespace weft::explorer
