#pragma once
// What a fork server runs (weft run, replay, minimize): the options weft run hands it in
// the file WEFT_RUN_OPTIONS names (core/run_config.def), read, and the variable removed
// before the program's main sees it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/expected_exit.hpp"
#include "core/shard.hpp"
#include "core/strategy.hpp"
#include "core/run_config.hpp"
#include "strategy/registry.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

// The options as weft run gave them (RunConfig, one field per option) and what the
// server works out from them once.
struct ExplorationConfig : RunConfig {
  bool replay = false;         // mode replay
  bool minimize_only = false;  // mode minimize: replay the schedule given, then minimise
  // After a sampling strategy's find (or minimize_only): look for the same bug with fewer
  // preemptions, within these budgets.
  std::uint64_t minimize_executions = 2000;
  double minimize_time_s = 20;
  std::string result_dir;  // where the run file is: the server writes its files there
  std::vector<std::string> no_preempt_patterns;                // no_preempt_in's patterns
  rt::PreemptOn preempt_mode = rt::PreemptOn::kRacy;           // preempt_on's
  std::uint64_t preemption_bound = StrategyOptions::kNoBound;  // bound's (pb:<c>)
  std::string bound_error;                                     // a malformed bound
  ExpectedExit expected_exit;                                  // expect_exit's
  Shard shard;           // run_shard's: this server runs shard i of n
  std::string schedule;  // the schedule schedule_in holds
  // The run file's first problem (a line it cannot read, a value a field refuses, a
  // schedule file that cannot be read): the run's error, not a silent default.
  std::string error;
  // WEFT_CLASS_LOG (the claims oracle's, not a user's): a file each counted execution's
  // happens-before class number is appended to, one line each (-1: none); not those
  // the state cache cut short, which are not whole executions.
  int class_log = -1;
  std::vector<std::pair<std::string, std::string>> search_options;  // checkpoint_options's
  // What every schedule written records (weft3): the execution options as weft run gave
  // them, taken before the search changes `races` (to go on past a race, say).
  std::vector<std::pair<std::string, std::string>> recorded_options;
  bool races_explicit = false;  // races was given; it is then "fail" when it was not

  bool fair() const { return !no_fair; }
  bool minimize() const { return !no_minimize; }
  bool state_cache() const { return !no_state_cache; }
  std::size_t width() const { return columns; }  // the text report's most columns
};

// The value of variable `name`, removed from the environment ("" when unset).
std::string take_env(const char* name);

// The run file `path` into *c; a problem is kept in c->error.
void read_server_config(const std::string& path, ExplorationConfig* c);

}  // namespace weft::explorer
