#pragma once
// The exploration: the one loop of executions, whatever runs them. It decides which
// executions run (the strategy's, within the budget of executions and time, this shard's
// share, a --jobs team's rounds), starts the search over when racy accesses become
// scheduling points, resumes and saves checkpoints, feeds each execution back to the
// strategy and keeps the bug table. An Executor (executor.hpp) runs each execution; what
// is explored (a whole program, a test body) sets the search up and writes its result:
// WholeProgramExploration (whole_program_exploration.cpp) and the in-process API's
// (explorer.cpp) derive from this class.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/run_record.hpp"
#include "core/schedule.hpp"
#include "core/shard.hpp"
#include "explore/bug_table.hpp"
#include "explore/executor.hpp"
#include "explore/exploration_state.hpp"
#include "explore/jobs_control.hpp"
#include "explore/progress_line.hpp"
#include "explore/race_aftermath.hpp"
#include "explore/search_checkpoint.hpp"
#include "explore/work_team.hpp"
#include "report/symbolizer.hpp"

namespace weft::explorer {

// The strategy an exploration's options name; bf's method= and var= names are looked up
// in this process's symbols (before any fork: every execution has the same mappings).
// `shard`: the part of the search it covers (the options', unless said).
std::unique_ptr<Strategy> make_exploration_strategy(const ExplorationConfig& cfg,
                                                    std::string* error,
                                                    std::optional<Shard> shard = std::nullopt);

class Exploration {
 public:
  // `replaying`: the search is one given schedule (replay_, set up by set_up()).
  Exploration(ExplorationState& s, Executor& executor, bool replaying);
  virtual ~Exploration() = default;
  Exploration(const Exploration&) = delete;
  Exploration& operator=(const Exploration&) = delete;

  // Sets up, searches and finishes (finish() ends the process). Returns only in an
  // execution's child, which goes on into the program.
  void run();

 protected:
  // What is explored sets it up: the program or body, its fingerprint_ and, when
  // replaying, replay_; the shared region, the sink.
  virtual void set_up() = 0;
  // After the strategy: the process every execution starts from.
  virtual void set_up_process() {}
  // Before the search, after the strategy and the budget. True in an execution's child.
  virtual bool before_search() { return false; }
  // After the search has concluded. True in an execution's child.
  virtual bool after_search() { return false; }
  // After the first execution: false ends the search (run_.error, or note_, says why).
  virtual bool first_execution_fits(const Trace& /*trace*/, bool /*bug*/) { return true; }
  // The scheduling points changed (s_.points).
  virtual void points_changed() {}
  // Writes the result (run_) where the explorer's caller reads it, and ends the process.
  [[noreturn]] virtual void finish(const std::string& note) = 0;
  [[noreturn]] void fail(const std::string& error) {
    run_.error = error;
    finish("");
    std::abort();  // (GCC does not take a virtual's [[noreturn]] on trust)
  }

  SharedHeader& header() { return s_.region->header(); }
  std::uint64_t deadline_ns() const { return budget_ns_ != 0 ? start_ + budget_ns_ : 0; }
  // The checkpoint's name in errors ("--checkpoint", "Options::checkpoint").
  void set_checkpoint_option(std::string name) { checkpoint_option_ = std::move(name); }
  // The options that shape an execution, as the explorer's caller names them (a replay
  // that diverges says them).
  void set_execution_options(std::string names) { execution_options_ = std::move(names); }
  // Reports the execution's races itself, once per pair of source lines (weft run's).
  void set_lists_races(bool on) { lists_races_ = on; }
  // The coverage states the scheduling points it is about (weft run's; the API's caller
  // does).
  void set_states_points(bool on) { states_points_ = on; }

  ExplorationState& s_;
  ExplorationConfig& cfg_;
  Executor& executor_;
  const bool replaying_;  // a schedule given (replay, a minimisation's first execution)
  bool guided_ = false;   // replay_ followed as far as the program goes, then the default
  Schedule replay_;
  RunRecord run_;
  BugTable table_;
  JobsControl jobs_;
  std::uint64_t fingerprint_ = 0;
  std::string output_;  // what the first bug's execution printed
  std::string note_;
  std::uint64_t start_ = 0;
  std::uint64_t counted_ = 0;  // executions of this shard's own (probes excluded)
  std::uint64_t first_bug_order_ = 0;
  RaceAftermath aftermath_;
  Symbolizer race_symbolizer_;  // lazy: reads nothing until a race or error needs it
  std::optional<WorkTeam> team_;

 private:
  void set_up_strategy();
  void set_up_budget();
  void join_team();
  void resume();
  bool resume_search(std::string* error);
  std::string save_checkpoint(bool complete);
  std::uint64_t space_of() const;
  std::optional<Shard> team_shard() const;
  std::uint64_t order() const;
  bool beaten();
  bool stop_before_execution();
  bool restart(bool begin, std::string* error);
  bool exchange_work();
  bool adopt_racy(const std::vector<std::uint64_t>& all);
  bool search();
  bool one_execution(std::uint64_t i, bool* child);
  bool take_execution(std::uint64_t i, bool probe, std::uint64_t this_order, int status);
  bool feed_strategy(const Trace& trace, bool probe, bool bug);
  bool take_races();
  bool take_bug(BugRecord b, std::uint64_t this_order, int status);
  std::string found_by() const;
  void conclude();
  void closing_warnings();

  std::string checkpoint_option_ = "--checkpoint";
  std::string execution_options_ =
      "--no-fair, --real-time, --steps, --no-preempt-in, --races, --preempt-on, "
      "--explore-timeouts, --spurious-wakeups";
  bool lists_races_ = true;
  bool states_points_ = true;
  std::uint64_t budget_ns_ = 0;
  std::uint64_t max_executions_ = 0;  // 0: no limit
  bool no_share_ = false;             // the budget is smaller than the shard count
  bool shared_budget_ = false;        // a team's workers take executions from one budget
  std::uint64_t earlier_bugs_ = 0;    // found by the runs a checkpoint resumes
  bool unfinished_ = false, unfinished_counted_ = false;
  std::uint32_t races_seen_ = 0;
  std::uint64_t restarts_ = 0;
  std::optional<ProgressLine> progress_;
  std::optional<SearchCheckpoint> checkpoint_;
  std::uint64_t space_ = 0;
  bool racy_shared_ = false;  // racy locations pass between a team's workers
  bool teamed_ = false;
  std::uint64_t in_round_ = 0;  // executions of this worker in the team's round
};

}  // namespace weft::explorer
