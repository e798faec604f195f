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
#include "explore/exploration.hpp"
#include "explore/in_process_executor.hpp"
#include "explore/recorded_options.hpp"
#include "explore/search_checkpoint.hpp"
#include "explore/shared_region.hpp"
#include "runtime/access_policy.hpp"
#include "runtime/controller.hpp"
#include "runtime/fiber.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/virtual_clock.hpp"
#include "runtime/virtual_ids.hpp"
#include "report/location.hpp"
#include "report/symbolizer.hpp"
#include "sys/os.hpp"
#include "strategy/registry.hpp"

namespace weft::explorer {
namespace {

// Options::shard, checked by validate(): the whole search when empty.
Shard shard_of(const Options& options) {
  Shard s;
  if (!options.shard.empty()) Shard::parse(options.shard, &s);
  return s;
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

// The API's options as an exploration's (the run options' table, core/run_config.def).
ExplorationConfig exploration_config(const Options& o) {
  ExplorationConfig c;
  c.strategy = o.strategy;
  c.seed = o.seed;
  c.executions = o.executions;
  c.time_s = o.time_limit_s;
  c.steps = o.max_steps;
  c.hang_timeout_s = o.hang_timeout_s;
  c.real_time = o.real_time;
  c.no_fair = !o.fair;
  c.races = o.races == Races::kOff ? "off" : o.races == Races::kReport ? "report" : "fail";
  c.preempt_mode = static_cast<rt::PreemptOn>(o.preempt_on);
  c.explore_timeouts = o.explore_timeouts;
  c.spurious_wakeups = o.spurious_wakeups;
  c.no_state_cache = !o.state_cache;
  c.bound = o.bound;
  if (!o.bound.empty()) parse_bound_option(o.bound, &c.preemption_bound, &c.bound_error);
  c.shard = shard_of(o);
  c.checkpoint = o.checkpoint;
  c.checkpoint_every_s = o.checkpoint_every_s;
  c.search_options = api_search_options(o);
  c.no_minimize = true;  // the caller minimises (in_process_minimizer.hpp)
  return c;
}

// The in-process executor's controller, with the exploration's race detector. (Its
// strategy is set before each execution: the search may start over.)
rt::ControllerConfig in_process_config(ExplorationState& s, detect::RaceDetector* races) {
  s.races = races;
  return controller_config(s);
}

// weft::explore's exploration of a test body: the one loop (exploration.hpp), each
// execution run by this process's controller. A bug ends this process, leaving it in the
// shared region; so does the end of the search, leaving what it covered.
class TestBodyExploration final : public Exploration {
 public:
  TestBodyExploration(ExplorationState& s, const std::function<void()>& body,
                      std::uint64_t fingerprint, const Schedule* replay, bool guided)
      : Exploration(s, executor_, replay != nullptr),
        given_(replay),
        detector_(s.config.races != "off" ? std::make_unique<detect::RaceDetector>() : nullptr),
        controller_(in_process_config(s, detector_.get())),
        executor_(s, controller_, body, /*coverage_on_bug=*/replay == nullptr) {
    fingerprint_ = fingerprint;
    guided_ = guided;
    set_checkpoint_option("Options::checkpoint");
    set_execution_options(
        "Options::fair, real_time, max_steps, races, preempt_on, explore_timeouts, "
        "spurious_wakeups");
    set_lists_races(false);    // the caller lists them all (SharedHeader::races)
    set_states_points(false);  // the caller does, a bug's coverage too
  }

 private:
  void set_up() override {
    if (given_ != nullptr) replay_ = *given_;  // its fingerprint checked by the caller
    if (detector_ && !detector_->ok())
      fail(os::address_space_error("race detection's shadow memory",
                                   detect::ShadowMemory::reserved_bytes(), "or use Races::kOff"));
  }

  // The caller names the points in the schedule of the bug that ends this process.
  void points_changed() override {
    SharedHeader& h = header();
    const std::string joined = join_points(s_.points);
    if (joined.size() >= sizeof h.points)
      fail("too many racy scheduling points to record in a schedule");
    detect::copy_text(h.points, sizeof h.points, joined.c_str());
  }

  [[noreturn]] void finish(const std::string& /*note*/) override {
    SharedHeader& h = header();
    if (!run_.error.empty() && h.error[0] == '\0')
      detect::copy_text(h.error, sizeof h.error, run_.error.c_str());
    h.counted.store(run_.executions, std::memory_order_relaxed);
    h.complete = run_.complete;
    write_coverage(h, run_.coverage);
    h.finished.store(1, std::memory_order_release);
    _exit(0);
  }

  const Schedule* given_;
  std::unique_ptr<detect::RaceDetector> detector_;
  rt::Controller controller_;
  InProcessExecutor executor_;
};

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
  ExplorationState s;
  s.config = exploration_config(options);
  s.region = &region;
  s.sink = std::make_unique<ChildSink>(&h);
  TestBodyExploration exploration(s, body, fingerprint, replay, guided);
  exploration.run();
  _exit(0);  // (run() returns only in a fork executor's child)
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
    if (!make_exploration_strategy(exploration_config(options), &error)) {
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
  run.executions = h.counted.load();
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
  const std::vector<std::string> points = split_points(h.points);
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
