#include "explore/server_search.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <functional>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/expected_exit.hpp"
#include "core/schedule.hpp"
#include "explore/bug_identity.hpp"
#include "explore/bug_table.hpp"
#include "explore/execution_child.hpp"
#include "explore/fork_executor.hpp"
#include "explore/jobs_control.hpp"
#include "explore/progress_line.hpp"
#include "explore/race_aftermath.hpp"
#include "explore/output_check.hpp"
#include "explore/point_log.hpp"
#include "explore/replay_strategy.hpp"
#include "explore/result_files.hpp"
#include "explore/search_checkpoint.hpp"
#include "explore/server_config.hpp"
#include "explore/shared_region.hpp"
#include "explore/stop_request.hpp"
#include "explore/work_team.hpp"
#include "strategy/dfs.hpp"
#include "strategy/happens_before_class.hpp"
#include "strategy/preemption_bound.hpp"
#include "strategy/schedule_simplifier.hpp"
#include "report/program_symbols_from.hpp"
#include "report/location.hpp"
#include "report/symbolizer.hpp"
#include "report/text_report.hpp"
#include "runtime/access_policy.hpp"
#include "runtime/fiber.hpp"
#include "runtime/instrumented_code.hpp"
#include "sys/os.hpp"
#include "strategy/registry.hpp"

namespace weft::explorer {
namespace {

// The run's strategy; bf's method= and var= names are looked up in the program's symbols
// (here, before any fork: every execution has the same mappings).
// `shard`: the part of the search it covers (the worker's, unless said).
std::unique_ptr<Strategy> make_server_strategy(const ServerConfig& cfg, std::string* error,
                                               std::optional<Shard> shard = std::nullopt) {
  if (!cfg.bound_error.empty()) {
    *error = cfg.bound_error;
    return nullptr;
  }
  // Never destroyed: every execution's child would otherwise tear down libdw's state at
  // exit, writing (and copying) pages of the server's heap.
  static auto& symbolizer = *new Symbolizer;
  static auto& symbols = *new SymbolizerSymbols(symbolizer);
  auto strategy = make_strategy(cfg.strategy, cfg.seed, error,
                                {.state_cache = cfg.state_cache(),
                                 .preemption_bound = cfg.preemption_bound,
                                 .symbols = &symbols});
  if (strategy && !strategy->distribution().set_shard(shard.value_or(cfg.shard))) {
    *error = "strategy " + cfg.strategy + " cannot be sharded";
    return nullptr;
  }
  return strategy;
}

// One line, written whole (O_APPEND: the workers of --jobs share the file): the class
// number, and " failed" when a failing step (an assertion, a crash) ended the execution:
// such an execution's class holds the other threads' steps that happened to run before
// the failure, which no search promises to vary.
void log_class(int fd, const Trace& trace) {
  const bool failed = trace.size() != 0 && (trace[trace.size() - 1].flags & kEndsProcess) != 0 &&
                      trace[trace.size() - 1].op.kind != OpKind::ProcessExit;
  char line[32];
  const int n = std::snprintf(line, sizeof line, "%016llx%s\n",
                              static_cast<unsigned long long>(happens_before_class(trace.events())),
                              failed ? " failed" : "");
  if (write(fd, line, static_cast<std::size_t>(n)) != n) std::perror("weft: WEFT_CLASS_LOG");
}

std::vector<std::string> own_args() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  return args;
}

// An exit status found by the very first execution is most often the program's design, not
// a schedule's doing: the report says how to declare it (a warning: the bug's message is
// its identity, the same whichever execution or worker found it).
void explain_first_exit(RunRecord* run, const BugRecord& b, std::uint64_t execution, int status) {
  if (b.kind != BugKind::kExitCode || execution != 1 || !WIFEXITED(status)) return;
  const std::string n = std::to_string(WEXITSTATUS(status));
  run->warnings.push_back(
      "the first execution already exited with status " + n + ": if the program returns " + n +
      " by design, declare it with --expect-exit " + n + ", or --expect-exit any");
}

std::string race_lines(Symbolizer& symbolizer, const DataRace& r);

// What makes two bugs the same one: for a race (or a use after free) its kind and the
// pair of its source lines, in either order; else bug_key().
std::string bug_identity(Symbolizer& symbolizer, const BugRecord& b) {
  return b.has_race ? std::string(bug_kind_name(b.kind)) + ":" + race_lines(symbolizer, b.race)
                    : bug_key(b);
}

// The pair of source lines of a race, in either order ("a.c:7|a.c:9").
std::string race_lines(Symbolizer& symbolizer, const DataRace& r) {
  auto line = [&](std::uintptr_t pc) {
    const Frame f = choose_location(pc, symbolizer);
    return f.file.empty() ? std::to_string(pc) : f.file + ":" + std::to_string(f.line);
  };
  std::string a = line(r.earlier.pc), b = line(r.later.pc);
  if (b < a) std::swap(a, b);
  return a + "|" + b;
}

// --checkpoint FILE, when FILE exists: the saved search replaces the new one (its racy
// points first, which make its space, then its strategy's state); *executions and *bugs
// continue from its counts. false: *error, one line.
bool resume_search(ServerState& s, SearchCheckpoint& checkpoint, std::uint64_t* executions,
                   std::uint64_t* bugs, std::string* error) {
  const ServerConfig& cfg = s.config;
  if (!cfg.jobs_control.empty()) {
    *error = "--checkpoint runs one worker: use --jobs 1";
    return false;
  }
  if (!s.strategy->distribution().resumable()) {
    *error = "--checkpoint cannot resume strategy " + cfg.strategy +
             "; it can dfs, pb, db, dpor, "
             "bf, vb, random, pct and pos";
    return false;
  }
  bool resumed = false;
  if (!checkpoint.open(&resumed, error)) return false;
  if (!resumed) return true;
  const Checkpoint& saved = checkpoint.saved();
  if (!saved.points.empty()) {
    std::vector<std::string> points;
    std::stringstream list(saved.points);
    for (std::string p; std::getline(list, p, ',');) points.push_back(p);
    if (std::string e = resolve_points(points, &s.racy); !e.empty()) {
      *error = "checkpoint '" + checkpoint.path() + "' is refused: " + e;
      return false;
    }
    s.points = points;
    s.strategy = make_server_strategy(cfg, error);
    if (!s.strategy) return false;
  }
  if (!checkpoint.restore(*s.strategy, error)) return false;
  *executions = saved.executions;
  *bugs = saved.bugs;
  return true;
}

// Every schedule of the run, made to name the options its execution ran under: those weft
// run gave, but races reported for what a race leads to (the search went on past races).
void record_options(RunRecord& run, const ServerConfig& cfg) {
  const OptionList& given = cfg.recorded_options;
  auto reporting = given;  // races first, as weft run lists them
  std::erase_if(reporting, [](const auto& o) { return o.first == "races"; });
  reporting.insert(reporting.begin(), {"races", "report"});
  for (auto* bugs : {&run.bugs, &run.races})
    for (BugRecord& b : *bugs) {
      b.schedule = with_options(b.schedule, given, cfg.steps);
      for (BugRecord& l : b.leads_to) l.schedule = with_options(l.schedule, reporting, cfg.steps);
    }
}

// What minimising a bug needs of the search that found it (serve()'s state).
struct MinimiseContext {
  ServerState& s;
  const sigset_t& program_mask;  // the program's own signal mask, for the executions
  std::uint64_t fingerprint;
  Symbolizer& symbolizer;
  std::uint64_t deadline_ns;  // where the run's own budget (--time) ends; 0: none
};

// Not a hang, whose every trial would cost --hang-timeout twice, nor a livelock, whose
// every trial runs to --steps and whose preemptions are fair scheduling's own, nor a wrong
// output (its trials compare no output).
bool worth_minimising(const BugRecord& b) {
  return b.preemptions() > 0 && b.kind != BugKind::kHang && b.kind != BugKind::kLivelock &&
         b.kind != BugKind::kWrongOutput;
}

// Schedule minimisation: a first bug often carries needless preemptions (GAMBIT: the
// preemptions "often indicate the root cause"). First the found schedule is simplified
// (ScheduleSimplifier: its threads' blocks merged or swapped, its switches dropped) while
// the same bug (`target`: kind and place) shows up with fewer preemptions, or as many in
// fewer switches: cheap, a local minimum. Then iterative preemption bounding below that
// count runs until the same bug shows up: the first such execution has the fewest
// preemptions of any, when it comes within the budget. `found` becomes the best one, and
// *output (when given) its execution's output. True in an execution's child, which the
// caller returns into the program.
bool minimise(MinimiseContext& c, BugRecord& found, const std::string& target,
              std::string* output) {
  ServerState& s = c.s;
  const ServerConfig& cfg = s.config;
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
    const pid_t pid = fork_execution(s, ran);
    if (pid <= 0) {
      if (pid == 0) {
        sigprocmask(SIG_SETMASK, &c.program_mask, nullptr);
        become_execution(s);
        *child = true;
      }
      stop = true;
      return false;
    }
    bool stopped = false;
    const int status = wait_child(pid, h, cfg.hang_timeout_s, since + limit_ns, &stopped);
    ++ran;
    if (stopped) {
      stop = true;
      return false;
    }
    const std::vector<Event> left_blocked = unfinished_steps(h);
    const Trace trace(s.region->events(),
                      std::min<std::uint64_t>(h.steps.load(), s.region->max_events()),
                      left_blocked);
    if (h.error[0] != '\0' ||
        !s.log->feed(*s.strategy, s.region->decisions(), h.decisions.load()).empty()) {
      stop = true;
      return false;
    }
    s.strategy->execution_done(trace);
    if (!execution_failed(h, status, cfg.expected_exit)) return false;
    BugRecord b =
        read_failure(*s.region, status, c.fingerprint, by, 0, s.points, cfg.expected_exit);
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

std::string joined_points(const std::vector<std::string>& points) {
  std::string joined;
  for (const std::string& p : points) joined += (joined.empty() ? "" : ",") + p;
  return joined;
}

// --no-preempt-in: the code its patterns name, symbolized once, here (every execution's
// child inherits the ranges); a pattern that names nothing is a warning.
void find_no_preempt_code(ServerState& s, RunRecord& run) {
  const std::vector<std::string>& patterns = s.config.no_preempt_patterns;
  if (patterns.empty()) return;
  Symbolizer symbolizer;
  std::vector<bool> matched;
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> ranges;
  for (const auto& r : symbolizer.find_code(patterns, &matched))
    ranges.emplace_back(r.begin, r.end);
  s.no_preempt = rt::CodeRanges(std::move(ranges));
  for (std::size_t i = 0; i < matched.size(); ++i)
    if (!matched[i])
      run.warnings.push_back("--no-preempt-in pattern '" + patterns[i] +
                             "' matches no shared object, source file or function");
}

// The program's whole standard input, the same for every execution: a read-only
// descriptor, as a redirected file would be, so that no execution changes the next one's
// input (-1: a terminal, left as it is).
int whole_input() {
  if (isatty(STDIN_FILENO)) return -1;
  const int input = memfd_create("weft-stdin", 0);
  char buf[65536];
  ssize_t n;
  while (StopRequest::wait_readable(STDIN_FILENO) && (n = read(STDIN_FILENO, buf, sizeof buf)) > 0)
    if (write(input, buf, n) != n) break;
  const std::string path = "/proc/self/fd/" + std::to_string(input);
  const int fd = open(path.c_str(), O_RDONLY);
  close(input);
  return fd;
}

// What the run warns of at its end: stalls that did not come back, restarts on new racy
// points.
void closing_warnings(RunRecord& run, std::uint64_t unconfirmed_hangs, std::uint64_t restarts) {
  if (unconfirmed_hangs > 0)
    run.warnings.push_back(
        std::to_string(unconfirmed_hangs) +
        (unconfirmed_hangs == 1 ? " execution" : " executions") +
        " stalled (no scheduling point for --hang-timeout) and, run again, did not: not reported "
        "as a hang (a busy machine starved it, or the program waits on something outside it)");
  if (restarts > 0)
    run.warnings.push_back("the search restarted " + std::to_string(restarts) +
                           (restarts == 1 ? " time" : " times") +
                           " as racy accesses became scheduling points (--preempt-on=racy); its "
                           "coverage counts executions since the last restart");
}

// Whether the execution created a thread; one created but never run (detached, main
// returned first) counts.
bool created_a_thread(const Trace& trace) {
  for (const Event& e : trace.events())
    if (e.thread != 0 || e.op.kind == OpKind::ThreadCreate) return true;
  return false;
}

// A fork server's search: the run's state, and its stages as methods. Those that may fork
// return true in the execution's child, which goes back into the program.
class ServerSearch {
 public:
  explicit ServerSearch(ServerState& s)
      : s_(s),
        cfg_(s.config),
        replaying_(cfg_.replay || cfg_.minimize_only),
        jobs_(replaying_ ? "" : cfg_.jobs_control, cfg_.jobs_worker),
        table_(&run_) {}

  // Never returns in the server; returns in each execution's child.
  void serve() {
    set_up_program();
    set_up_memory();
    set_up_strategy();
    set_up_process();
    set_up_budget();
    join_team();
    resume();
    if (reference_output()) return;
    if (search()) return;
    conclude();
    if (minimise_first()) return;
    run_.elapsed_s = static_cast<double>(os::monotonic_ns() - start_) / 1e9;
    run_.max_steps = cfg_.steps;
    closing_warnings(run_, unconfirmed_hangs_, restarts_);
    if (const int sig = StopRequest::signal(); sig != 0)
      run_.interrupted = sig == SIGINT ? "SIGINT" : "SIGTERM";
    finish(note_);
  }

 private:
  // Writes the run's files for weft run (result_files.hpp) and ends the server.
  [[noreturn]] void finish(const std::string& note) {
    record_options(run_, cfg_);
    if (!note.empty() && run_.error.empty() && run_.bugs.empty())
      run_.coverage.summary = run_.note = note;
    for (auto* bugs : {&run_.bugs, &run_.races})
      for (BugRecord& b : *bugs) b.show_last(cfg_.full_trace ? ~std::size_t{0} : kShownSteps);
    // A replay prints the program's output as it goes; --check-output held its stdout back.
    if (cfg_.replay && s_.output_check && s_.output_check->what() == "-") {
      const std::string printed = s_.output_check->take();
      [[maybe_unused]] const ssize_t n = write(
          cfg_.stdout_to_stderr ? STDERR_FILENO : STDOUT_FILENO, printed.data(), printed.size());
    }
    const ResultFiles where{cfg_.result_dir, program_, args_, cfg_.replay_command,
                            TextOptions{.colour = cfg_.coloured, .width = cfg_.width()}};
    if (std::string why = write_result_files(where, run_, output_); !why.empty()) {
      const std::string line = "weft: " + why + "\n";
      [[maybe_unused]] const ssize_t n = write(STDERR_FILENO, line.data(), line.size());
      _exit(127);  // weft run: said already
    }
    std::fflush(nullptr);
    _exit(0);
  }
  [[noreturn]] void fail(const std::string& error) {
    run_.error = error;
    finish("");
  }
  SharedHeader& header() { return s_.region->header(); }

  // What every execution's child finds ready: the main thread's stack (read from
  // /proc/self/maps) and the program's data (reports name objects there), the program.
  void set_up_program() {
    std::uintptr_t stack_lo, stack_hi;
    os::thread_stack(&stack_lo, &stack_hi);
    find_program_data();
    args_ = own_args();
    program_ = args_.empty() ? "" : args_[0];
    if (!args_.empty()) args_.erase(args_.begin());
    fingerprint_ = program_fingerprint(program_);
    s_.pid = os::getpid();
    run_.strategy = cfg_.strategy;
    run_.seed = cfg_.seed;
    if (!replaying_) run_.shard = cfg_.shard;
  }

  // The race detector's shadow memory (made once, fresh in every child: exit handlers and
  // destructors still access memory, so it lives as long as the process), then the trace,
  // which takes what address space an address-space limit leaves.
  void set_up_memory() {
    if (cfg_.races != "off") {
      s_.races = new detect::RaceDetector();
      if (!s_.races->ok())
        fail(os::address_space_error("race detection's shadow memory",
                                     detect::ShadowMemory::reserved_bytes(),
                                     "or run with --races off"));
    }
    s_.region = std::make_unique<SharedRegion>(cfg_.steps + 2, max_decisions_for(cfg_.steps));
    s_.log = std::make_unique<PointLog>(std::size_t{1} << 32, cfg_.steps);
    if (!s_.region->ok() || !s_.log->ok()) {
      const std::size_t bytes = s_.region->ok() ? PointLog::least(cfg_.steps) : s_.region->size();
      fail(os::address_space_error(
          ("the trace of an execution of up to " + std::to_string(cfg_.steps) + " steps").c_str(),
          bytes, "or lower --steps"));
    }
    if (!cfg_.error.empty()) fail(cfg_.error);
    s_.sink = std::make_unique<ChildSink>(&header());
  }

  // The strategy, or the schedule to replay (replay, or minimize's first execution).
  void set_up_strategy() {
    std::string error;
    if (!replaying_) {
      s_.strategy = make_server_strategy(cfg_, &error);
      if (!s_.strategy) fail(error);
      return;
    }
    if (!decode_schedule(cfg_.schedule, &replay_, &error, max_decisions_for(cfg_.steps)))
      fail(error);
    if (replay_.fingerprint != fingerprint_)
      fail("the schedule was recorded for another program (this is " +
           program_.substr(program_.rfind('/') + 1) + ")");
    run_.strategy = replay_.strategy;
    run_.seed = replay_.seed;
    if (std::string e = resolve_points(replay_.points, &s_.racy); !e.empty()) fail(e);
    s_.points = replay_.points;
    s_.strategy = std::make_unique<ReplayStrategy>(replay_.decisions, s_.sink.get());
  }

  // The process every execution is forked from: its code ranges, input, output, CPU and
  // signal mask.
  void set_up_process() {
    run_.instrumented = rt::g_instrumented;
    find_no_preempt_code(s_, run_);
    s_.stdin_fd = whole_input();
    s_.output_fd = memfd_create("weft-output", 0);
    if (!cfg_.check_output.empty())
      s_.output_check = std::make_unique<OutputCheck>(cfg_.check_output);
    // Whether threads switch in user space: decided once, here (an environment lookup and
    // the pages it touches), not in every child.
    (void)rt::fiber::enabled();
    // Workers of one weft run --jobs each on a cpu of their own; one alone, where it is.
    pin_to_one_cpu(cfg_.jobs_control.empty() ? -1 : static_cast<int>(cfg_.jobs_worker));
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &program_mask_);
    StopRequest::clear_from(&program_mask_);  // the program's own mask, for the executions
  }

  // The time and executions this server may spend: a shard its share of the budget (the
  // executions numbered below it), a team's workers the whole budget together.
  void set_up_budget() {
    start_ = os::monotonic_ns();
    budget_ns_ = static_cast<std::uint64_t>(cfg_.time_s * 1e9);
    max_executions_ = replaying_ ? 1 : cfg_.executions;  // 0: no limit
    const CoverageKind kind = s_.strategy->coverage().kind;
    shared_budget_ = !replaying_ && jobs_.active() && kind != CoverageKind::kNone &&
                     kind != CoverageKind::kPortfolio;
    if (!replaying_ && cfg_.executions != 0 && cfg_.shard.sharded() && !shared_budget_) {
      max_executions_ = cfg_.shard.share(cfg_.executions);
      no_share_ = max_executions_ == 0;
    }
    header().nraces.store(0);
    progress_.emplace(cfg_.progress && !replaying_);
  }
  std::uint64_t deadline_ns() const { return budget_ns_ != 0 ? start_ + budget_ns_ : 0; }

  // The schedule space: a search with other extra scheduling points is another.
  std::uint64_t space_of() const {
    std::string joined;
    for (const std::string& p : s_.points) joined += p + '\n';
    return fnv1a64(joined);
  }
  // One search for the team (this machine's shard of it, as the workers' parts add up
  // to): a team's worker searches it whole, passing work, rather than its own shard.
  // (Only while the team is active: its shard count is then a multiple of the workers'.)
  std::optional<Shard> team_shard() const {
    if (!team_->active()) return std::nullopt;
    const std::uint32_t count = cfg_.shard.count / cfg_.jobs_workers;
    return Shard{cfg_.shard.index % count, count};
  }

  // --jobs on a systematic search: the workers pass each other work (work_team.hpp).
  // Begun by worker 0: the others get theirs at the first exchange.
  void join_team() {
    team_.emplace(replaying_ ? "" : cfg_.jobs_control, cfg_.jobs_worker, cfg_.jobs_workers);
    space_ = space_of();
    racy_shared_ = cfg_.preempt_mode == rt::PreemptOn::kRacy && cfg_.races != "off";
    if (team_->active() && cfg_.shard.count % cfg_.jobs_workers != 0)
      team_->leave();  // not weft run's
    if (!team_->active()) return;
    std::string error;
    auto shared = make_server_strategy(cfg_, &error, team_shard());
    if (shared && shared->distribution().join_team(cfg_.jobs_worker, space_, cfg_.jobs_worker == 0))
      s_.strategy = std::move(shared);
    else
      team_->leave();
  }

  // --checkpoint: a saved search resumed, and saved again at once (a FILE that cannot be
  // written is said before any execution runs).
  void resume() {
    checkpoint_.emplace(replaying_ ? "" : cfg_.checkpoint, cfg_.checkpoint_every_s,
                        cfg_.search_options, fingerprint_);
    if (!checkpoint_->active()) return;
    std::string error;
    if (!resume_search(s_, *checkpoint_, &counted_, &earlier_bugs_, &error)) fail(error);
    space_ = space_of();
    run_.executions = counted_;
    if (std::string e = save_checkpoint(false); !e.empty()) fail(e);
  }
  // The last execution was prepared but never fed back (interrupted, a tool error): a
  // checkpoint saves the search as before it, and does not count it.
  std::string save_checkpoint(bool complete) {
    const bool again = unfinished_ && !complete;
    const SearchCheckpoint::Progress p{counted_ - (again && unfinished_counted_ ? 1 : 0),
                                       earlier_bugs_ + run_.bugs.size(), complete,
                                       joined_points(s_.points)};
    return checkpoint_->save(*s_.strategy, again, p, os::monotonic_ns());
  }

  // The child of an execution just forked: back into the program, with its own mask.
  void become_child() {
    team_->disown();
    sigprocmask(SIG_SETMASK, &program_mask_, nullptr);
    become_execution(s_);
  }

  // --check-output: the serial execution's output first, the reference every execution's
  // is compared with (in a replay too, so that the replay shows the same difference).
  // Serial: dfs's first execution, with no racy points (a replay's schedule has some).
  bool reference_output() {
    if (!s_.output_check) return false;
    std::unique_ptr<Strategy> searching = std::move(s_.strategy);
    rt::RacyPoints racy = std::move(s_.racy);
    s_.racy = rt::RacyPoints();
    s_.strategy = std::make_unique<DfsStrategy>();
    s_.strategy->next_execution();
    SharedHeader& h = header();
    const pid_t pid = fork_execution(s_, 0);
    if (pid == 0) {
      become_child();
      return true;
    }
    const int status = pid < 0 ? -1 : wait_child(pid, h, cfg_.hang_timeout_s);
    if (StopRequest::made()) {
      s_.output_check.reset();  // stopped unfinished: the search below ends at once
    } else if (pid < 0 || h.error[0] != '\0' || execution_failed(h, status, cfg_.expected_exit)) {
      run_.warnings.push_back(
          "--check-output: the serial execution, whose output the others' "
          "would be compared with, fails itself: no output was compared");
      s_.output_check.reset();
    } else {
      s_.output_check->set_reference(s_.output_check->take());
    }
    s_.strategy = std::move(searching);
    s_.racy = std::move(racy);
    h.nraces.store(0);  // its races are not this search's to report
    return false;
  }

  // An execution's place in the order that decides which bug is first: this worker's
  // count, or in a team its slot in the round.
  std::uint64_t order() const { return teamed_ ? team_->slot_base() + in_round_ : counted_; }
  // Another worker's (or shard's) bug comes first in that order: this one stops.
  bool beaten() {
    return !cfg_.keep_going && !aftermath_.on && jobs_.beaten(cfg_.shard.global(order()));
  }

  // Whether the search ends before its next execution: the budget, a signal, a bug
  // another worker found first, a checkpoint that cannot be written.
  bool stop_before_execution() {
    progress_->update(counted_, *s_.strategy, run_.bugs.size());
    jobs_.progress(counted_, run_.bugs.size());
    if (checkpoint_->due(os::monotonic_ns()))
      if (std::string e = save_checkpoint(false); !e.empty()) {
        run_.error = e;
        return true;
      }
    if (no_share_ || (max_executions_ != 0 && counted_ >= max_executions_)) return true;
    if (budget_ns_ != 0 && os::monotonic_ns() - start_ >= budget_ns_) return true;
    if (StopRequest::made()) return true;
    if (aftermath_.over(os::monotonic_ns(), counted_)) return true;
    return beaten();
  }

  // The search starts over on the space s.racy now makes (new scheduling points); in a
  // team, this worker begins it when `begin`, else gets its part at the next exchange.
  bool restart(bool begin, std::string* error) {
    s_.points = point_locations(s_.racy);
    s_.strategy = make_server_strategy(cfg_, error, team_shard());
    if (!s_.strategy) return false;
    ++restarts_;
    space_ = space_of();
    if (!s_.strategy->distribution().join_team(cfg_.jobs_worker, space_, begin)) team_->leave();
    return true;
  }

  // In a team, at a round's end or out of work: work passed between the workers, and
  // racy locations another worker saw. false: this worker leaves the search.
  bool exchange_work() {
    while (team_->active() &&
           (in_round_ >= team_->round_length() || s_.strategy->distribution().work_left() == 0)) {
      WorkTeam::RacyNews news;
      const auto outcome = team_->exchange(s_.strategy->distribution(), space_, deadline_ns(),
                                           s_.racy.pcs(), racy_shared_ ? &news : nullptr);
      if (outcome == WorkTeam::Outcome::kLeft) return false;
      // Racy locations another worker saw: this one starts over on the same space as it,
      // with no work of its own when someone already searches it (the lowest worker
      // begins it otherwise), so that the team's claim is about one space.
      if (racy_shared_ && !news.shared && adopt_racy(news.all)) {
        std::string error;
        if (!restart(news.held ? false : cfg_.jobs_worker == news.first, &error)) {
          run_.error = error;
          return false;
        }
      }
      // Done: every worker is out of work; next_execution() finds none here.
      if (outcome == WorkTeam::Outcome::kDone) team_->leave();
      in_round_ = 0;
      if (beaten()) return false;
    }
    return true;
  }
  // Another worker's racy locations; true when any was new here.
  bool adopt_racy(const std::vector<std::uint64_t>& all) {
    bool grew = false;
    for (std::uint64_t pc : all) grew |= s_.racy.add(static_cast<std::uintptr_t>(pc));
    return grew;
  }

  // The loop of executions. True in an execution's child.
  bool search() {
    teamed_ = team_->active();
    for (std::uint64_t i = 0;; ++i) {
      if (stop_before_execution() || !exchange_work()) break;
      if (!s_.strategy->next_execution()) {
        run_.complete = !replaying_;
        break;
      }
      bool child = false;
      if (!one_execution(i, &child)) return child;
    }
    return false;
  }

  enum class Ran { kDone, kChild, kForkFailed, kStopped };
  // Execution `number` of the whole search, forked and waited for. A hang is confirmed by
  // running the same execution again before it is reported: the server's state is
  // unchanged, so the child makes the same decisions. A stall that a busy machine's
  // starvation made does not come back; the rerun is then the execution.
  Ran fork_and_wait(std::uint64_t number, int* status) {
    SharedHeader& h = header();
    for (int attempt = 0; attempt < 2; ++attempt) {
      const pid_t pid = fork_execution(s_, number);
      if (pid < 0) return Ran::kForkFailed;
      if (pid == 0) {
        become_child();
        return Ran::kChild;  // into the program; never reached in the server
      }
      bool stopped = false;
      *status = wait_child(pid, h, cfg_.hang_timeout_s, deadline_ns(), &stopped);
      if (stopped) return Ran::kStopped;
      if (!h.bug.written() || h.bug.kind != static_cast<int>(BugKind::kHang)) break;
      if (attempt == 0)
        ++unconfirmed_hangs_;
      else
        --unconfirmed_hangs_;  // it came back: a hang
    }
    return Ran::kDone;
  }

  // One execution, the strategy's next, run and taken in: its trace fed back, its races
  // and its bug recorded. false: the search ends (*child: in the execution's child).
  bool one_execution(std::uint64_t i, bool* child) {
    // A probe (a sharded search learning where its tree splits) is another shard's
    // execution: not counted here, and a bug it shows is that shard's to report.
    const bool probe = s_.strategy->distribution().probing();
    unfinished_ = true;
    unfinished_counted_ = !probe;
    if (!probe && shared_budget_ && !jobs_.take_execution(cfg_.executions)) return false;
    const std::uint64_t this_order = order();
    if (!probe) {
      ++counted_;
      ++in_round_;
      if (cfg_.shard.sharded()) run_.ran_in_order(this_order);
    }
    // Numbered in the whole search (one numbering, whatever the workers and shards): its
    // place in the order that decides which bug is first.
    int status = 0;
    const Ran ran = fork_and_wait(probe ? counted_ : cfg_.shard.global(this_order), &status);
    if (ran == Ran::kChild) {
      *child = true;
      return false;
    }
    if (ran == Ran::kForkFailed) {
      run_.error = std::string("fork failed: ") + std::strerror(errno);
      return false;
    }
    run_.executions = counted_;
    SharedHeader& h = header();
    run_.instrumented |= h.instrumented;
    if (ran == Ran::kStopped) {
      // Interrupted: the result says so. Else unfinished: neither a bug nor an execution
      // the strategy can learn from.
      if (!StopRequest::made())
        run_.warnings.push_back("the time budget (--time) ran out during execution " +
                                std::to_string(counted_) + ", which was stopped unfinished");
      return false;
    }
    if (h.error[0] != '\0') {
      run_.error = h.error + where_suffix(h.error_pc, race_symbolizer_);
      return false;
    }
    return take_execution(i, probe, this_order, status);
  }

  // What the execution just waited for left: fed to the strategy, its races and its bug
  // recorded. false: the search ends.
  bool take_execution(std::uint64_t i, bool probe, std::uint64_t this_order, int status) {
    SharedHeader& h = header();
    const std::vector<Event> left_blocked = unfinished_steps(h);
    const Trace trace(s_.region->events(),
                      std::min<std::uint64_t>(h.steps.load(), s_.region->max_events()),
                      left_blocked);
    // --check-output: an execution that ends well but prints otherwise than the serial one.
    std::string wrong_output, output_diff;
    const bool failed = execution_failed(h, status, cfg_.expected_exit);
    if (!failed && !probe && s_.output_check)
      wrong_output = s_.output_check->compare(s_.output_check->take(), &output_diff);
    const bool bug = (failed || !wrong_output.empty()) && !probe;
    if (h.cut.load() != 0 && !bug && !probe) ++run_.cut_executions;
    // A failure ended the process after its thread's last step: what the other threads
    // would have done next conflicts with it (--keep-going searches on past it). Not a
    // deadlock: every thread was blocked, none had a next step, and the order of the last
    // independent steps before it is one class, not several.
    const bool deadlock = h.bug.written() && h.bug.kind == static_cast<int>(BugKind::kDeadlock);
    if (bug && !deadlock && trace.size() != 0)
      s_.region->events()[trace.size() - 1].flags |= kEndsProcess;
    if (!feed_strategy(trace, probe, bug)) return false;
    if (i == 0 && !first_execution_fits()) return false;
    const bool new_points = take_races();
    if (bug) {
      BugRecord b = read_failure(*s_.region, status, fingerprint_, run_.strategy, run_.seed,
                                 s_.points, cfg_.expected_exit);
      if (!wrong_output.empty()) {
        b.kind = BugKind::kWrongOutput;
        b.message = wrong_output;
        b.details = output_diff;
      }
      if (!take_bug(std::move(b), this_order, status)) return false;
    }
    if (new_points && !replaying_) {
      // New scheduling points change the space: the search starts over on it, so that
      // what it reports covered is covered with every racy access a point. This worker
      // begins it; the others learn the locations at the next exchange and join it.
      std::string error;
      if (!restart(true, &error)) {
        run_.error = error;
        return false;
      }
    }
    if (!bug && i == 0 && !replaying_ && !created_a_thread(trace)) {
      note_ = "the program created no thread: there is nothing to explore";
      return false;
    }
    return true;
  }

  // The trace to the strategy (a replay: checked against the schedule instead).
  bool feed_strategy(const Trace& trace, bool probe, bool bug) {
    SharedHeader& h = header();
    if (!replaying_) {
      std::string diverged = s_.log->feed(*s_.strategy, s_.region->decisions(), h.decisions.load());
      if (!diverged.empty()) {
        run_.error = diverged;
        return false;
      }
      s_.strategy->execution_done(trace);
      if (cfg_.class_log >= 0 && !probe && h.cut.load() == 0) log_class(cfg_.class_log, trace);
      unfinished_ = false;
    } else if (!bug && h.decisions.load() < replay_.decisions.size()) {
      run_.error = "replay diverged: the execution ended after " +
                   std::to_string(h.decisions.load()) + " of the schedule's " +
                   std::to_string(replay_.decisions.size()) +
                   " decisions; the program is not deterministic under this schedule, or the "
                   "schedule was recorded for a different build or options (--no-fair, "
                   "--real-time, --steps, --no-preempt-in, --races, --preempt-on, "
                   "--explore-timeouts, --spurious-wakeups)";
      return false;
    }
    return true;
  }

  // After the first execution: the options that need an instrumented program have one.
  bool first_execution_fits() {
    const char* wrappers = "weft's compiler wrappers (weft-cc, weft-c++";
    if (!replaying_ && !run_.instrumented && s_.strategy->needs_memory_accesses()) {
      run_.error = "strategy " + cfg_.strategy +
                   " places its preemptions at memory accesses and needs the program built "
                   "with " +
                   wrappers +
                   "); this one was not, so weft sees only its "
                   "synchronisation";
      return false;
    }
    if (cfg_.races_explicit && cfg_.races != "off" && !run_.instrumented) {
      run_.error = "--races=" + cfg_.races + " needs the program built with " + wrappers +
                   ": they instrument memory accesses); this one was not, so weft sees only "
                   "its synchronisation";
      return false;
    }
    return true;
  }

  // Races found in this execution: their locations become scheduling points (racy), and
  // each pair of source lines not seen yet is reported (not past a race that is the run's
  // bug: its aftermath reports none). True when the racy points grew.
  bool take_races() {
    SharedHeader& h = header();
    const std::size_t known = s_.racy.pcs().size();
    const std::uint32_t nraces = h.nraces.load(std::memory_order_acquire);
    for (std::uint32_t r = races_seen_; r < nraces; ++r) {
      s_.racy.add(h.races[r].race.earlier.pc);
      s_.racy.add(h.races[r].race.later.pc);
      // Reported once per pair of source lines (the child told apart pairs of pcs).
      if (aftermath_.on) continue;
      const std::string lines = race_lines(race_symbolizer_, h.races[r].race);
      if (table_.race_reported(lines)) continue;
      BugRecord rec = race_record(h.races[r], "data race (reported, not failing: --races=report)");
      rec.schedule = region_schedule(*s_.region, fingerprint_, run_.strategy, run_.seed, s_.points);
      if (cfg_.shard.sharded()) rec.part_execution = counted_;
      table_.add_race(std::move(rec), lines);
    }
    races_seen_ = nraces;
    if (h.bug.written() && h.bug.has_race) {
      s_.racy.add(h.bug.race.earlier.pc);
      s_.racy.add(h.bug.race.later.pc);
    }
    return s_.racy.pcs().size() != known && cfg_.preempt_mode == rt::PreemptOn::kRacy;
  }

  // The execution's bug into the table (a new one, or a hit of a known one), or, past a
  // race that is the run's bug, as what the race leads to. false: the search ends.
  bool take_bug(BugRecord b, std::uint64_t this_order, int status) {
    if (aftermath_.on) {
      // What the race leads to: the first bug of another kind (another race is none).
      if (b.kind == BugKind::kDataRace) return true;
      b.found_by = found_by();
      run_.bugs[0].leads_to.push_back(std::move(b));
      return false;
    }
    const std::string key = bug_identity(race_symbolizer_, b);
    if (const std::size_t seen = table_.find(key); seen != BugTable::kNew) {
      table_.hit(seen);
    } else {
      if (!replaying_) {
        b.found_by = found_by();
        explain_first_exit(&run_, b, counted_, status);
      }
      if (b.kind == BugKind::kHang) b.message += "; the same execution, run again, hung again";
      if (run_.bugs.empty()) {
        output_ = execution_output(s_);
        jobs_.found(cfg_.shard.global(this_order));
        first_bug_order_ = this_order;
        if (teamed_) b.order = this_order + 1;
      }
      if (cfg_.shard.sharded()) b.part_execution = counted_;  // this part's own count
      table_.add(std::move(b), key);
    }
    if (!cfg_.keep_going && !replaying_ && run_.bugs.size() == 1 &&
        run_.bugs[0].kind == BugKind::kDataRace && s_.config.races == "fail") {
      aftermath_.begin(os::monotonic_ns(), counted_);
      s_.config.races = "report";  // the next executions' children go on past races
      return true;
    }
    return cfg_.keep_going && !replaying_;
  }
  std::string found_by() const {
    const Coverage now = s_.strategy->coverage();
    return now.origin.empty() ? run_.strategy : now.origin;
  }

  // After the loop: what the search covered, saved and stated.
  void conclude() {
    team_->leave();
    if (checkpoint_->active())
      if (std::string e = save_checkpoint(run_.complete); !e.empty() && run_.error.empty())
        run_.error = e;
    progress_->clear();
    jobs_.progress(counted_, run_.bugs.size());
    run_.racy_points = s_.points;  // the space the coverage is about
    run_.coverage = s_.strategy->coverage_with_stats();
    if (replaying_) run_.coverage = Coverage{};
    // (A worker that ran nothing but learnt racy locations from the others searched, as a
    // team, an instrumented program. One that learnt nothing either does not know whether
    // the program is instrumented: it states no points; the others' statement is the
    // search's.)
    else if (counted_ != 0 || !s_.racy.empty() || !cfg_.shard.sharded())
      state_points(run_.coverage, rt::claimed_points(cfg_.preempt_mode, cfg_.races != "off",
                                                     run_.instrumented || !s_.racy.empty()));
    run_.complete = run_.complete && covered(run_.coverage);
    if (cfg_.minimize_only && run_.bugs.empty() && run_.error.empty())
      run_.error = "the schedule shows no bug in this program: there is nothing to minimise";
    if (aftermath_.on) {
      s_.config.races = "fail";  // the minimiser looks for the race itself
      run_.bugs[0].leads_to_searched = counted_ - aftermath_.since_executions;
    }
  }

  // Every strategy's first bug (the default portfolio's too) is minimised, but preemption
  // bounding's: it ran every schedule of fewer preemptions before it. Not when another
  // shard's bug comes first: this one will not be reported. True in an execution's child.
  bool minimise_first() {
    const bool minimal_already = cfg_.strategy == "pb" || cfg_.strategy.starts_with("pb:");
    const bool beaten_first =
        !run_.bugs.empty() && jobs_.beaten(cfg_.shard.global(first_bug_order_));
    if (run_.bugs.empty() || !run_.error.empty() || cfg_.keep_going || !cfg_.minimize() ||
        beaten_first || !((!replaying_ && !minimal_already) || cfg_.minimize_only))
      return false;
    // The race that was the bug made its accesses scheduling points: the schedules found
    // now must name them.
    s_.points = point_locations(s_.racy);
    MinimiseContext context{s_, program_mask_, fingerprint_, race_symbolizer_, deadline_ns()};
    if (worth_minimising(run_.bugs[0]) && minimise(context, run_.bugs[0], table_.key(0), &output_))
      return true;
    // What a race led to, as it was found: races reported, not failing.
    if (!run_.bugs[0].leads_to.empty() && worth_minimising(run_.bugs[0].leads_to[0])) {
      BugRecord& led = run_.bugs[0].leads_to[0];
      s_.config.races = "report";
      if (minimise(context, led, bug_identity(race_symbolizer_, led), nullptr)) return true;
    }
    return false;
  }

  ServerState& s_;
  const ServerConfig& cfg_;
  const bool replaying_;  // a schedule given (replay, or minimize's first execution)
  JobsControl jobs_;
  RunRecord run_;
  BugTable table_;
  std::vector<std::string> args_;
  std::string program_;
  std::uint64_t fingerprint_ = 0;
  std::string output_;  // what the first bug's execution printed
  std::string note_;
  Schedule replay_;
  sigset_t program_mask_{};  // the program's own signal mask, for the executions
  std::uint64_t start_ = 0, budget_ns_ = 0;
  std::uint64_t max_executions_ = 0;  // 0: no limit
  bool no_share_ = false;             // the budget is smaller than the shard count
  bool shared_budget_ = false;        // a team's workers take executions from one budget
  std::uint64_t counted_ = 0;         // executions of this shard's own (probes excluded)
  std::uint64_t earlier_bugs_ = 0;    // found by the runs a checkpoint resumes
  bool unfinished_ = false, unfinished_counted_ = false;
  std::uint32_t races_seen_ = 0;
  Symbolizer race_symbolizer_;  // lazy: reads nothing until a race or error needs it
  std::uint64_t restarts_ = 0;
  std::uint64_t unconfirmed_hangs_ = 0;  // stalls the same execution run again did not repeat
  std::optional<ProgressLine> progress_;
  std::optional<WorkTeam> team_;
  std::optional<SearchCheckpoint> checkpoint_;
  std::uint64_t space_ = 0;
  bool racy_shared_ = false;  // racy locations pass between a team's workers
  bool teamed_ = false;
  std::uint64_t in_round_ = 0;  // executions of this worker in the team's round
  std::uint64_t first_bug_order_ = 0;
  RaceAftermath aftermath_;
};

}  // namespace

void serve(ServerState& s) {
  ServerSearch search(s);
  search.serve();
}

}  // namespace weft::explorer
