#include "explore/exploration.hpp"

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>

#include "explore/bug_identity.hpp"
#include "explore/fork_executor.hpp"
#include "explore/kept_strategy.hpp"
#include "explore/replay_strategy.hpp"
#include "explore/stop_request.hpp"
#include "report/location.hpp"
#include "report/program_symbols_from.hpp"
#include "runtime/access_policy.hpp"
#include "strategy/happens_before_class.hpp"
#include "strategy/registry.hpp"
#include "strategy/schedule_simplifier.hpp"
#include "sys/os.hpp"

namespace weft::explorer {
namespace {

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

}  // namespace

std::unique_ptr<Strategy> make_exploration_strategy(const ExplorationConfig& cfg,
                                                    std::string* error,
                                                    std::optional<Shard> shard) {
  if (!cfg.bound_error.empty()) {
    *error = cfg.bound_error;
    return nullptr;
  }
  // Never destroyed: every execution's child would otherwise tear down libdw's state at
  // exit, writing (and copying) pages of the server's heap.
  static auto& symbolizer = *new Symbolizer;
  static auto& symbols = *new SymbolizerSymbols(symbolizer);
  // All of the strategy's memory in the kept arena (kept_strategy.hpp).
  rt::InternalHeap::KeepScope keep;
  auto strategy = make_strategy(cfg.strategy, cfg.seed, error,
                                {.state_cache = cfg.state_cache(),
                                 .preemption_bound = cfg.preemption_bound,
                                 .symbols = &symbols});
  if (strategy && !strategy->distribution().set_shard(shard.value_or(cfg.shard))) {
    *error = "strategy " + cfg.strategy + " cannot be sharded";
    return nullptr;
  }
  if (!strategy) return nullptr;
  return std::make_unique<KeptStrategy>(std::move(strategy));
}

Exploration::Exploration(ExplorationState& s, Executor& executor, bool replaying)
    : s_(s),
      cfg_(s.config),
      executor_(executor),
      replaying_(replaying),
      table_(&run_),
      jobs_(replaying ? "" : s.config.jobs_control, s.config.jobs_worker) {
  run_.strategy = cfg_.strategy;
  run_.seed = cfg_.seed;
  if (!replaying_) run_.shard = cfg_.shard;
}

void Exploration::run() {
  set_up();
  set_up_strategy();
  set_up_process();
  set_up_budget();
  join_team();
  resume();
  if (before_search()) return;
  if (search()) return;
  conclude();
  if (after_search()) return;
  run_.elapsed_s = static_cast<double>(os::monotonic_ns() - start_) / 1e9;
  run_.max_steps = cfg_.steps;
  closing_warnings();
  if (const int sig = StopRequest::signal(); sig != 0)
    run_.interrupted = sig == SIGINT ? "SIGINT" : "SIGTERM";
  finish(note_);
}

// The strategy, or the schedule to replay (replay, or minimize's first execution).
void Exploration::set_up_strategy() {
  if (!replaying_) {
    std::string error;
    s_.strategy = make_exploration_strategy(cfg_, &error);
    if (!s_.strategy) fail(error);
    points_changed();
    return;
  }
  run_.strategy = replay_.strategy;
  run_.seed = replay_.seed;
  if (std::string e = resolve_points(replay_.points, &s_.racy); !e.empty()) fail(e);
  s_.points = replay_.points;
  points_changed();
  if (guided_)
    s_.strategy = std::make_unique<GuidedStrategy>(replay_.decisions);
  else
    s_.strategy = std::make_unique<ReplayStrategy>(replay_.decisions, s_.sink.get());
}

// The time and executions this search may spend: a shard its share of the budget (the
// executions numbered below it), a team's workers the whole budget together.
void Exploration::set_up_budget() {
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

// The schedule space: a search with other extra scheduling points is another.
std::uint64_t Exploration::space_of() const {
  std::string joined;
  for (const std::string& p : s_.points) joined += p + '\n';
  return fnv1a64(joined);
}

// One search for the team (this machine's shard of it, as the workers' parts add up
// to): a team's worker searches it whole, passing work, rather than its own shard.
// (Only while the team is active: its shard count is then a multiple of the workers'.)
std::optional<Shard> Exploration::team_shard() const {
  if (!team_->active()) return std::nullopt;
  const std::uint32_t count = cfg_.shard.count / cfg_.jobs_workers;
  return Shard{cfg_.shard.index % count, count};
}

// --jobs on a systematic search: the workers pass each other work (work_team.hpp).
// Begun by worker 0: the others get theirs at the first exchange.
void Exploration::join_team() {
  team_.emplace(replaying_ ? "" : cfg_.jobs_control, cfg_.jobs_worker, cfg_.jobs_workers);
  space_ = space_of();
  racy_shared_ = cfg_.preempt_mode == rt::PreemptOn::kRacy && cfg_.races != "off";
  if (team_->active() && cfg_.shard.count % cfg_.jobs_workers != 0)
    team_->leave();  // not weft run's
  if (!team_->active()) return;
  std::string error;
  auto shared = make_exploration_strategy(cfg_, &error, team_shard());
  if (shared && shared->distribution().join_team(cfg_.jobs_worker, space_, cfg_.jobs_worker == 0))
    s_.strategy = std::move(shared);
  else
    team_->leave();
}

// A checkpoint: a saved search resumed, and saved again at once (a file that cannot be
// written is said before any execution runs).
void Exploration::resume() {
  checkpoint_.emplace(replaying_ ? "" : cfg_.checkpoint, cfg_.checkpoint_every_s,
                      cfg_.search_options, fingerprint_);
  if (!checkpoint_->active()) return;
  std::string error;
  if (!resume_search(&error)) fail(error);
  space_ = space_of();
  run_.executions = counted_;
  if (std::string e = save_checkpoint(false); !e.empty()) fail(e);
}

// When the checkpoint's file exists, the saved search replaces the new one (its racy
// points first, which make its space, then its strategy's state); the counts of
// executions and bugs go on from its. false: *error, one line.
bool Exploration::resume_search(std::string* error) {
  if (!cfg_.jobs_control.empty()) {
    *error = checkpoint_option_ + " runs one worker: use --jobs 1";
    return false;
  }
  if (!s_.strategy->distribution().resumable()) {
    *error = checkpoint_option_ + " cannot save strategy '" + cfg_.strategy +
             "'; it saves dfs, pb, db, dpor, bf, vb, random, pct, pos and a portfolio of them";
    return false;
  }
  bool resumed = false;
  if (!checkpoint_->open(&resumed, error)) return false;
  if (!resumed) return true;
  const Checkpoint& saved = checkpoint_->saved();
  if (!saved.points.empty()) {
    const std::vector<std::string> points = split_points(saved.points);
    if (std::string e = resolve_points(points, &s_.racy); !e.empty()) {
      *error = "checkpoint '" + checkpoint_->path() + "' is refused: " + e;
      return false;
    }
    s_.points = points;
    points_changed();
    s_.strategy = make_exploration_strategy(cfg_, error);
    if (!s_.strategy) return false;
  }
  if (!checkpoint_->restore(*s_.strategy, error)) return false;
  counted_ = saved.executions;
  earlier_bugs_ = saved.bugs;
  return true;
}

// The last execution was prepared but never fed back (interrupted, a tool error): a
// checkpoint saves the search as before it, and does not count it.
std::string Exploration::save_checkpoint(bool complete) {
  const bool again = unfinished_ && !complete;
  const SearchCheckpoint::Progress p{counted_ - (again && unfinished_counted_ ? 1 : 0),
                                     earlier_bugs_ + run_.bugs.size(), complete,
                                     join_points(s_.points)};
  return checkpoint_->save(*s_.strategy, again, p, os::monotonic_ns());
}

// An execution's place in the order that decides which bug is first: this worker's
// count, or in a team its slot in the round.
std::uint64_t Exploration::order() const {
  return teamed_ ? team_->slot_base() + in_round_ : counted_;
}

// Another worker's (or shard's) bug comes first in that order: this one stops.
bool Exploration::beaten() {
  return !cfg_.keep_going && !aftermath_.on && jobs_.beaten(cfg_.shard.global(order()));
}

// Whether the search ends before its next execution: the budget, a signal, a bug
// another worker found first, a checkpoint that cannot be written.
bool Exploration::stop_before_execution() {
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
bool Exploration::restart(bool begin, std::string* error) {
  s_.points = point_locations(s_.racy);
  points_changed();
  s_.strategy = make_exploration_strategy(cfg_, error, team_shard());
  if (!s_.strategy) return false;
  ++restarts_;
  space_ = space_of();
  if (!s_.strategy->distribution().join_team(cfg_.jobs_worker, space_, begin)) team_->leave();
  return true;
}

// In a team, at a round's end or out of work: work passed between the workers, and
// racy locations another worker saw. false: this worker leaves the search.
bool Exploration::exchange_work() {
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
bool Exploration::adopt_racy(const std::vector<std::uint64_t>& all) {
  bool grew = false;
  for (std::uint64_t pc : all) grew |= s_.racy.add(static_cast<std::uintptr_t>(pc));
  return grew;
}

// The loop of executions. True in an execution's child.
bool Exploration::search() {
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

// One execution, the strategy's next, run and taken in: its trace fed back, its races
// and its bug recorded. false: the search ends (*child: in the execution's child).
bool Exploration::one_execution(std::uint64_t i, bool* child) {
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
  // This process's executions so far, the one beginning included (what an in-process
  // exploration that a bug ends has run).
  header().counted.store(counted_ + (probe ? 1 : 0), std::memory_order_relaxed);
  // Numbered in the whole search (one numbering, whatever the workers and shards): its
  // place in the order that decides which bug is first.
  const Executed ran =
      executor_.run((probe ? counted_ : cfg_.shard.global(this_order)) + 1, deadline_ns());
  if (ran.kind == Executed::Kind::kChild) {
    *child = true;
    return false;
  }
  if (ran.kind == Executed::Kind::kFailed) {
    run_.error = ran.error;
    return false;
  }
  run_.executions = counted_;
  SharedHeader& h = header();
  run_.instrumented |= h.instrumented;
  if (ran.kind == Executed::Kind::kStopped) {
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
  return take_execution(i, probe, this_order, ran.status);
}

// What the execution just run left: fed to the strategy, its races and its bug recorded.
// false: the search ends.
bool Exploration::take_execution(std::uint64_t i, bool probe, std::uint64_t this_order,
                                 int status) {
  SharedHeader& h = header();
  const Trace trace = executor_.trace();
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
  if (i == 0 && !first_execution_fits(trace, bug)) return false;
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
  return note_.empty();
}

// The trace to the strategy (a replay: checked against the schedule instead).
bool Exploration::feed_strategy(const Trace& trace, bool probe, bool bug) {
  SharedHeader& h = header();
  if (!replaying_ || guided_) {
    std::string diverged = executor_.feed(*s_.strategy);
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
                 "schedule was recorded for a different build or options (" +
                 execution_options_ + ")";
    return false;
  }
  return true;
}

// Races found in this execution: their locations become scheduling points (racy), and
// each pair of source lines not seen yet is reported (not past a race that is the run's
// bug: its aftermath reports none). True when the racy points grew.
bool Exploration::take_races() {
  SharedHeader& h = header();
  const std::size_t known = s_.racy.pcs().size();
  const std::uint32_t nraces = h.nraces.load(std::memory_order_acquire);
  for (std::uint32_t r = races_seen_; r < nraces; ++r) {
    s_.racy.add(h.races[r].race.earlier.pc);
    s_.racy.add(h.races[r].race.later.pc);
    // Reported once per pair of source lines (the child told apart pairs of pcs).
    if (aftermath_.on || !lists_races_) continue;
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
bool Exploration::take_bug(BugRecord b, std::uint64_t this_order, int status) {
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
      run_.bugs[0].kind == BugKind::kDataRace && cfg_.races == "fail") {
    aftermath_.begin(os::monotonic_ns(), counted_);
    cfg_.races = "report";  // the next executions' children go on past races
    return true;
  }
  return cfg_.keep_going && !replaying_;
}

std::string Exploration::found_by() const {
  const Coverage now = s_.strategy->coverage();
  return now.origin.empty() ? run_.strategy : now.origin;
}

// After the loop: what the search covered, saved and stated.
void Exploration::conclude() {
  team_->leave();
  if (checkpoint_->active())
    if (std::string e = save_checkpoint(run_.complete); !e.empty() && run_.error.empty())
      run_.error = e;
  progress_->clear();
  jobs_.progress(counted_, run_.bugs.size());
  run_.executions = counted_;
  run_.racy_points = s_.points;  // the space the coverage is about
  run_.coverage = s_.strategy->coverage_with_stats();
  if (replaying_) run_.coverage = Coverage{};
  // (A worker that ran nothing but learnt racy locations from the others searched, as a
  // team, an instrumented program. One that learnt nothing either does not know whether
  // the program is instrumented: it states no points; the others' statement is the
  // search's.)
  else if (states_points_ && (counted_ != 0 || !s_.racy.empty() || !cfg_.shard.sharded()))
    state_points(run_.coverage, rt::claimed_points(cfg_.preempt_mode, cfg_.races != "off",
                                                   run_.instrumented || !s_.racy.empty()));
  run_.complete = run_.complete && covered(run_.coverage);
  if (cfg_.minimize_only && run_.bugs.empty() && run_.error.empty())
    run_.error = "the schedule shows no bug in this program: there is nothing to minimise";
  if (aftermath_.on) {
    cfg_.races = "fail";  // the minimiser looks for the race itself
    run_.bugs[0].leads_to_searched = counted_ - aftermath_.since_executions;
  }
}

// What the run warns of at its end: restarts on new racy points.
void Exploration::closing_warnings() {
  if (restarts_ > 0)
    run_.warnings.push_back("the search restarted " + std::to_string(restarts_) +
                            (restarts_ == 1 ? " time" : " times") +
                            " as racy accesses became scheduling points (--preempt-on=racy); "
                            "its coverage counts executions since the last restart");
}

}  // namespace weft::explorer
