#pragma once
// What a fork server runs (weft run, replay, minimize): the settings weft run hands it in
// WEFT_* variables (cli/main.cpp writes them), read and removed from the environment
// before the program's main sees it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/expected_exit.hpp"
#include "core/shard.hpp"
#include "core/strategy.hpp"
#include "strategy/registry.hpp"
#include "report/text_width.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

struct ServerConfig {
  bool replay = false;
  // weft minimize: replay the schedule given, then minimise the bug it shows.
  bool minimize_only = false;
  // After a sampling strategy's find (or minimize_only): look for the same bug with fewer
  // preemptions, within these budgets.
  bool minimize = true;
  bool progress = false;  // a progress line on stderr (a terminal, not --quiet)
  std::uint64_t minimize_executions = 2000;
  double minimize_time_s = 20;
  std::string result_dir;
  std::string replay_command;  // WEFT_REPLAY_COMMAND: what the HTML page says replays the bug
  std::string strategy = "random";
  std::uint64_t seed = 0;
  std::uint64_t executions = 1000;
  double time_s = 0;
  std::uint64_t steps = 100000;
  bool fair = true;
  bool stdout_to_stderr = false;  // a replay whose JSON result goes to stdout
  bool colour = false;            // the text report goes to a terminal
  std::size_t width = kDefaultTextWidth;  // the text report's most columns (the terminal's)
  bool keep_going = false;        // go on after a bug, counting each distinct one's hits
  bool full_trace = false;        // reports show every step, not a long trace's last ones
  std::vector<std::string> no_preempt_in;  // patterns of code run without preemption
  std::string races = "fail";       // off, report or fail
  bool races_explicit = false;      // asked for on the command line
  rt::PreemptOn preempt_on = rt::PreemptOn::kRacy;
  bool explore_timeouts = false;
  bool spurious_wakeups = false;
  bool state_cache = true;
  std::uint64_t bound = StrategyOptions::kNoBound;  // --bound pb:<c>
  std::string bound_error;                           // a malformed WEFT_BOUND
  std::string number_error;  // the first malformed value of a WEFT_* variable
  double hang_timeout_s = 10;
  ExpectedExit expect_exit;  // --expect-exit: the status the program returns by design
  std::string check_output;  // --check-output: "" off, "-" stdout, else the file it writes
  std::string schedule;
  // WEFT_SCHEDULE_OPTIONS: the options weft run records in every schedule written (weft3);
  // unset: none recorded (weft1, weft2).
  bool record_options = false;
  std::vector<std::pair<std::string, std::string>> schedule_options;
  Shard shard;               // WEFT_SHARD=<i>/<n>: this server runs shard i of n
  std::string jobs_control;  // WEFT_JOBS_CONTROL: weft run --jobs's shared words
  std::uint32_t jobs_worker = 0;  // WEFT_JOBS_WORKER: this worker's number
  std::uint32_t jobs_workers = 1;  // WEFT_JOBS_WORKERS: how many there are
  // WEFT_CLASS_LOG (the claims oracle's, not a user's): a file each counted execution's
  // happens-before class number is appended to, one line each (-1: none); not those
  // the state cache cut short, which are not whole executions.
  int class_log = -1;
  std::string checkpoint;          // WEFT_CHECKPOINT: --checkpoint FILE
  double checkpoint_every_s = 60;  // WEFT_CHECKPOINT_EVERY
  std::vector<std::pair<std::string, std::string>> checkpoint_options;  // WEFT_CHECKPOINT_OPTIONS
};

// The value of variable `name`, removed from the environment ("" when unset).
std::string take_env(const char* name);

// Every setting but the mode (WEFT_MODE, which makes a process a server) into *c; a
// malformed value is kept in c->number_error (the run's error, not a silent default).
void read_server_config(ServerConfig* c);

}  // namespace weft::explorer
