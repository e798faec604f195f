#include "explore/explorer.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "core/numbers.hpp"
#include "core/shard.hpp"
#include "explore/execution_child.hpp"
#include "explore/recorded_options.hpp"
#include "explore/replay_strategy.hpp"
#include "explore/search_checkpoint.hpp"
#include "explore/shared_region.hpp"
#include "runtime/access_policy.hpp"
#include "runtime/controller.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/virtual_ids.hpp"
#include "report/location.hpp"
#include "report/symbolizer.hpp"
#include "report/program_symbols_from.hpp"
#include "sys/os.hpp"
#include "strategy/registry.hpp"
#include "strategy/schedule_simplifier.hpp"

namespace weft::explorer {
namespace {

// Options::shard, checked by validate(): the whole search when empty.
Shard shard_of(const Options& options) {
  Shard s;
  if (!options.shard.empty()) Shard::parse(options.shard, &s);
  return s;
}

// The test's strategy; bf's method= and var= names are looked up in this process's
// symbols (the test binary and its libraries).
std::unique_ptr<Strategy> make_api_strategy(const Options& options, std::string* error) {
  StrategyOptions so{.state_cache = options.state_cache};
  if (!options.bound.empty() && !parse_bound_option(options.bound, &so.preemption_bound, error))
    return nullptr;
  static Symbolizer symbolizer;
  static SymbolizerSymbols symbols(symbolizer);
  so.symbols = &symbols;
  auto strategy = make_strategy(options.strategy, options.seed, error, so);
  if (strategy && !strategy->distribution().set_shard(shard_of(options))) {
    *error = "strategy " + options.strategy + " cannot be sharded";
    return nullptr;
  }
  return strategy;
}

constexpr std::uint64_t kMaxStepsLimit = kStepsNumber.hi;  // as weft run --steps

// Options::checkpoint: what shapes the search, which a resumed one must have the same.
SearchCheckpoint::Options api_search_options(const Options& o) {
  auto yes = [](bool b) { return std::string(b ? "yes" : "no"); };
  return {{"strategy", o.strategy},
          {"seed", std::to_string(o.seed)},
          {"bound", o.bound},
          {"shard", o.shard.empty() ? "0/1" : o.shard},
          {"max_steps", std::to_string(o.max_steps)},
          {"fair", yes(o.fair)},
          {"real_time", yes(o.real_time)},
          {"races", std::to_string(static_cast<int>(o.races))},
          {"preempt_on", std::to_string(static_cast<int>(o.preempt_on))},
          {"explore_timeouts", yes(o.explore_timeouts)},
          {"spurious_wakeups", yes(o.spurious_wakeups)},
          {"state_cache", yes(o.state_cache)}};
}

// Options::checkpoint, when the file exists: the saved search replaces *strategy (its
// racy points first, which make its space); *executions goes on from its count. "" or
// the error, one line.
std::string resume_api_search(const Options& options, SearchCheckpoint& checkpoint,
                              std::unique_ptr<Strategy>* strategy, rt::RacyPoints* racy,
                              std::vector<std::string>* points, std::uint64_t* executions) {
  if (!(*strategy)->distribution().resumable())
    return "Options::checkpoint cannot save strategy '" + options.strategy +
           "'; it saves dfs, pb, db, dpor, bf, vb, random, pct, pos and a portfolio of them";
  bool resumed = false;
  std::string error;
  if (!checkpoint.open(&resumed, &error)) return error;
  if (!resumed) return "";
  const Checkpoint& saved = checkpoint.saved();
  if (!saved.points.empty()) {
    std::vector<std::string> list;
    for (std::string_view rest = saved.points; !rest.empty();) {
      const std::size_t comma = rest.find(',');
      list.emplace_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    if (std::string e = resolve_points(list, racy); !e.empty())
      return "checkpoint '" + checkpoint.path() + "' is refused: " + e;
    *points = list;
    *strategy = make_api_strategy(options, &error);
    if (!*strategy) return error;
  }
  if (!checkpoint.restore(**strategy, &error)) return error;
  *executions = saved.executions;
  return "";
}

std::string joined(const std::vector<std::string>& points) {
  std::string s;
  for (const std::string& p : points) s += (s.empty() ? "" : ",") + p;
  return s;
}

// Executions here share one process, so libc's random generators carry their state from
// one to the next: each execution starts them where a new process does (glibc seeds
// random() and rand() with 1, and drand48's state is all zeros), so that an execution is
// a function of its schedule, as under the fork server.
void restart_random_generators() {
  srandom(1);
  unsigned short zero[3] = {0, 0, 0};
  seed48(zero);
}

[[noreturn]] void run_child(const std::function<void()>& body, const Options& options,
                            const Schedule* replay, bool guided, SharedRegion& region,
                            std::uint64_t fingerprint) {
  // This thread drives the executions: its blocks are weft's, apart from the body's heap.
  rt::InternalHeap::set_weft_thread(true);
  SharedHeader& h = region.header();
  h.instrumented = rt::g_instrumented;
  rt::VirtualClock::enabled = !options.real_time;
  rt::VirtualIds::enabled = true;
  install_child_detectors(h, options.hang_timeout_s);

  // A replay is for a debugger: each thread on its own kernel thread, as gdb shows them.
  if (replay != nullptr && !guided) rt::fiber::disable();
  ChildSink sink(&h);
  std::unique_ptr<Strategy> strategy;
  rt::RacyPoints racy;
  std::vector<std::string> points;
  if (replay != nullptr) {
    if (std::string error = resolve_points(replay->points, &racy); !error.empty())
      sink.on_tool_error(error);
    points = replay->points;
    if (guided)
      strategy = std::make_unique<GuidedStrategy>(replay->decisions);
    else
      strategy = std::make_unique<ReplayStrategy>(replay->decisions, &sink);
  } else {
    std::string error;
    strategy = make_api_strategy(options, &error);
    if (!strategy) sink.on_tool_error(error);
  }
  SearchCheckpoint checkpoint(replay == nullptr ? options.checkpoint : "",
                              options.checkpoint_every_s, api_search_options(options), fingerprint);
  std::uint64_t resumed = 0;  // executions of the runs the checkpoint saved
  if (checkpoint.active())
    if (std::string e = resume_api_search(options, checkpoint, &strategy, &racy, &points, &resumed);
        !e.empty())
      sink.on_tool_error(e);
  if (replay == nullptr) sink.set_strategy(strategy.get());
  rt::ControllerConfig config;
  config.strategy = strategy.get();
  config.sink = &sink;
  config.max_steps = options.max_steps;
  config.fair = options.fair;
  config.events = region.events();
  config.decisions = region.decisions();
  config.decision_capacity = region.max_decisions();
  config.steps_out = &h.steps;
  config.decisions_out = &h.decisions;
  config.thread_notes = &h.thread_notes;
  config.allocations = &h.allocations;
  config.preempt_on = static_cast<rt::PreemptOn>(options.preempt_on);
  config.explore_timeouts = options.explore_timeouts;
  config.spurious_wakeups = options.spurious_wakeups;
  config.racy = &racy;
  detect::RaceDetector detector;
  if (options.races != Races::kOff) {
    config.races = &detector;
    config.races_fail = options.races == Races::kFail;
  }
  rt::Controller controller(config);
  auto publish_points = [&] {
    std::string joined;
    for (const std::string& p : points) joined += (joined.empty() ? "" : ",") + p;
    if (joined.size() >= sizeof h.points)
      sink.on_tool_error("too many racy scheduling points to record in a schedule");
    detect::copy_text(h.points, sizeof h.points, joined.c_str());
  };
  publish_points();
  if (config.races != nullptr && !detector.ok())
    sink.on_tool_error(os::address_space_error("race detection's shadow memory",
                                               detect::ShadowMemory::reserved_bytes(),
                                               "or use Races::kOff"));
  std::uint32_t races_seen = 0;

  const std::uint64_t start = os::monotonic_ns();
  const auto budget_ns = static_cast<std::uint64_t>(options.time_limit_s * 1e9);
  std::uint64_t max_executions = replay != nullptr ? 1 : options.executions;
  // A shard runs its share of the budget: its executions numbered below it (as the fork
  // server does). None when the budget is smaller than the shard's index.
  const Shard shard = replay != nullptr ? Shard{} : shard_of(options);
  bool no_share = false;
  if (shard.sharded() && max_executions != 0) {
    max_executions = shard.share(max_executions);
    no_share = max_executions == 0;
  }
  bool complete = false;
  std::uint64_t counted = resumed;  // this shard's own executions (probes excluded)
  // Between executions (a bug ends this process inside one: the last save stands).
  auto save = [&](bool done) {
    const SearchCheckpoint::Progress p{counted, 0, done, joined(points)};
    if (std::string e = checkpoint.save(*strategy, false, p, os::monotonic_ns()); !e.empty())
      sink.on_tool_error(e);
  };
  if (checkpoint.active()) save(false);
  for (;;) {
    if (checkpoint.due(os::monotonic_ns())) save(false);
    if (no_share || (max_executions != 0 && counted >= max_executions)) break;
    if (budget_ns != 0 && os::monotonic_ns() - start >= budget_ns) break;
    if (!strategy->next_execution()) {
      complete = true;
      break;
    }
    // A probe (a sharded search learning where its tree splits) is another shard's
    // execution: not counted. A bug in it still ends this exploration (the child cannot
    // go on past a bug), so a bug in a shared execution fails every shard that runs it.
    const bool probe = strategy->distribution().probing();
    if (!probe) ++counted;
    h.executions.store(counted + (probe ? 1 : 0), std::memory_order_relaxed);
    restart_random_generators();
    controller.run_execution(body);
    strategy->execution_done(controller.trace());
    // Races found in this execution: their locations become scheduling points (kRacy),
    // and the search starts over on the new space.
    bool grew = false;
    const std::uint32_t n = h.nraces.load(std::memory_order_acquire);
    for (; races_seen < n; ++races_seen) {
      grew |= racy.add(h.races[races_seen].race.earlier.pc);
      grew |= racy.add(h.races[races_seen].race.later.pc);
    }
    if (grew && replay == nullptr && options.preempt_on == PreemptOn::kRacy) {
      points = point_locations(racy);
      publish_points();
      std::string error;
      strategy = make_api_strategy(options, &error);
      sink.set_strategy(strategy.get());
      config.strategy = strategy.get();
      controller.set_strategy(strategy.get());
    }
  }
  h.executions.store(counted, std::memory_order_relaxed);
  if (checkpoint.active()) save(complete);
  const Coverage coverage = strategy->coverage_with_stats();
  h.complete = complete && replay == nullptr && covered(coverage);
  write_coverage(h, coverage);
  h.finished.store(1, std::memory_order_release);
  _exit(0);
}

void sleep_ms(long ms) {
  struct timespec ts {
    ms / 1000, (ms % 1000) * 1000000
  };
  nanosleep(&ts, nullptr);
}

}  // namespace

std::string validate(const Options& o) {
  if (o.max_steps == 0 || o.max_steps > kMaxStepsLimit)
    return "max_steps must be between 1 and " + std::to_string(kMaxStepsLimit) + ", not " +
           std::to_string(o.max_steps);
  // At most 1e9 s: more would overflow the nanoseconds of the budget.
  if (!(o.time_limit_s >= 0 && o.time_limit_s <= kTimeSeconds.hi))
    return "time_limit_s must be from 0 to 1e9 (0: no limit), not " +
           std::to_string(o.time_limit_s);
  if (!(o.hang_timeout_s > 0) || o.hang_timeout_s > 86400)
    return "hang_timeout_s must be > 0 and at most 86400, not " + std::to_string(o.hang_timeout_s);
  if (!(o.checkpoint_every_s >= 0.001 && o.checkpoint_every_s <= 86400))
    return "checkpoint_every_s must be from 0.001 to 86400 seconds, not " +
           std::to_string(o.checkpoint_every_s);
  if (Shard s;
      !o.shard.empty() && (!Shard::parse(o.shard, &s) || !s.valid() || s.count > Shard::kMaxCount))
    return "shard must be I/N, shard I of N with 0 <= I < N (such as 0/4) and N at most " +
           std::to_string(Shard::kMaxCount) + ", not '" + o.shard + "'";
  return "";
}

RunRecord run_in_process(const std::function<void()>& body, std::uint64_t fingerprint,
                         const Options& options, const Schedule* replay, bool guided) {
  RunRecord run;
  run.strategy = replay != nullptr ? replay->strategy : options.strategy;
  run.seed = replay != nullptr ? replay->seed : options.seed;
  if (std::string e = validate(options); !e.empty()) {
    run.error = e;
    return run;
  }
  if (replay == nullptr) run.shard = shard_of(options);
  if (rt::t_self != nullptr || rt::Controller::active() != nullptr) {
    run.error = "weft::explore cannot run inside another exploration";
    return run;
  }
  if (replay == nullptr) {
    std::string error;
    if (!make_api_strategy(options, &error)) {
      run.error = error;
      return run;
    }
  } else if (replay->fingerprint != fingerprint) {
    run.error = "the schedule was recorded for another test (its fingerprint is " +
                encode_schedule(Schedule{replay->fingerprint, "", 0, {}}).substr(6, 16) +
                "); replay it with the body and Options::name it was found with";
    return run;
  }

  const std::size_t max_events = options.max_steps + 2;
  SharedRegion region(max_events, max_decisions_for(options.max_steps));
  if (!region.ok()) {
    run.error = "cannot map " + std::to_string(max_events) + " steps of shared trace memory";
    return run;
  }
  SharedHeader& h = region.header();

  const std::uint64_t start = os::monotonic_ns();
  // Before the fork: dl_iterate_phdr takes the loader's lock, which another thread of the
  // test binary may hold at the fork.
  find_program_data();
  std::fflush(nullptr);  // buffered output would otherwise be written twice
  const pid_t parent = os::getpid();
  const pid_t pid = fork();
  // The exploration dies with the test binary, however that ends.
  if (pid == 0 && !os::die_with_parent(parent)) _exit(1);
  if (pid < 0) {
    run.error = std::string("fork failed: ") + std::strerror(errno);
    return run;
  }
  if (pid == 0) run_child(body, options, replay, guided, region, fingerprint);

  int status = 0;
  // The time budget holds inside an execution too: past it (and a second for the
  // exploration to finish the execution it began and write its result), it is stopped.
  const std::uint64_t deadline =
      options.time_limit_s > 0
          ? start + static_cast<std::uint64_t>(options.time_limit_s * 1e9) + 1000000000ull
          : 0;
  bool stopped = false;
  for (long wait_ms = 1;; wait_ms = wait_ms < 20 ? wait_ms * 2 : 20) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) break;
    if (deadline != 0 && os::monotonic_ns() >= deadline && !h.finished.load() && !h.bug.written()) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      stopped = true;
      break;
    }
    sleep_ms(wait_ms);
  }
  run.elapsed_s = static_cast<double>(os::monotonic_ns() - start) / 1e9;
  run.executions = h.executions.load();
  run.complete = h.complete;
  run.instrumented = h.instrumented;
  run.coverage.kind = h.coverage_kind;
  run.coverage.complete = h.coverage_complete;
  run.coverage.bound = h.coverage_bound;
  run.coverage.executions = h.coverage_executions;
  run.coverage.classes = h.coverage_classes;
  run.coverage.nodes_created = h.coverage_nodes_created;
  run.coverage.peak_nodes = h.coverage_peak_nodes;
  run.coverage.summary = h.coverage_summary;
  run.coverage.origin = h.coverage_origin;
  run.coverage.nondeterminism = h.coverage_nondeterminism;
  if (replay == nullptr)
    state_points(run.coverage, rt::claimed_points(static_cast<rt::PreemptOn>(options.preempt_on),
                                                  options.races != Races::kOff, run.instrumented));
  if (h.error[0] != '\0') {
    Symbolizer symbolizer;
    run.error = h.error + where_suffix(h.error_pc, symbolizer);
  }

  if (stopped) {
    run.complete = false;
    run.coverage = Coverage{};
    run.coverage.summary = "stopped by the time budget during execution " +
                           std::to_string(run.executions) + ": no coverage claim";
    run.warnings.push_back("the time budget (time_limit_s) ran out during execution " +
                           std::to_string(run.executions) + ", which was stopped unfinished");
  }
  const bool died = !stopped && !h.finished.load() && !h.bug.written() && h.error[0] == '\0';
  std::vector<std::string> points;
  for (std::string_view rest = h.points; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    points.emplace_back(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  if (h.bug.written() || died)
    run.bugs.push_back(read_bug(region, status, fingerprint, run.strategy, run.seed, points));
  for (std::uint32_t i = 0; i < h.nraces.load() && i < SharedHeader::kMaxRaces; ++i)
    run.races.push_back(
        race_record(h.races[i], "data race (reported, not failing: Races::kReport)"));
  for (BugRecord& b : run.bugs) {
    b.found_by = run.coverage.origin.empty() ? run.strategy : run.coverage.origin;
    b.schedule = with_options(b.schedule, recorded_options(options), options.max_steps);
  }
  return run;
}

}  // namespace weft::explorer
