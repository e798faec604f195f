#pragma once
// weft run's, replay's and minimize's options: the Run they fill, the command-line options
// that fill it, and those that shape an execution, which a schedule records (weft3) and a
// replay takes back from it.
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/schedule.hpp"

namespace weft::cli {

constexpr const char* kDefaultStrategy = "portfolio";

struct Run {
  std::string strategy = kDefaultStrategy;
  std::uint64_t executions = 1000;
  double time_s = 0;
  std::uint64_t seed = 0;
  std::uint64_t steps = 100000;
  double hang_timeout_s = 10;
  std::string expect_exit;  // --expect-exit N|any ("" = 0)
  std::string check_output;  // --check-output [FILE] ("-": stdout; "" off)
  std::string json;
  std::string schedule_out;
  std::string trace_out;
  std::string html;
  bool quiet = false;
  std::string color = "auto";  // --color auto|always|never
  bool gdb = false;
  bool gdb_batch = false;  // --gdb-batch: gdb runs the replay, prints the stack, quits
  bool real_time = false;
  bool no_fair = false;
  bool keep_going = false;
  bool full_trace = false;
  bool explore_timeouts = false;
  bool spurious_wakeups = false;
  bool no_state_cache = false;
  bool stats = false;
  bool no_minimize = false;
  std::string bound;  // "" or "pb:<c>"
  std::string no_preempt_in;
  std::string races;       // "" = the default (fail when instrumented)
  std::string preempt_on;  // "" = the default (racy)
  std::string schedule_file;  // replay, minimize: the schedule's file, or the schedule itself
  std::vector<std::string> given;  // replay, minimize: kExecutionOptions on the command line
  std::vector<std::string> command;
  std::string shard;        // --shard I/N ("" none)
  std::uint32_t shards = 0; // --shards N: a Kubernetes Indexed Job's count
  std::uint32_t jobs = 0;   // --jobs N (0: WEFT_JOBS, else the cores)
  std::string checkpoint;   // --checkpoint FILE ("" none)
  double checkpoint_every_s = 60;
};

// The options that shape an execution, which a schedule records (weft3, core/schedule.hpp)
// so that weft replay needs none; named without "--".
inline constexpr const char* kExecutionOptions[] = {"races", "preempt-on", "no-preempt-in",
                                             "explore-timeouts", "spurious-wakeups", "steps",
                                             "real-time", "no-fair", "expect-exit", "check-output"};
using OptionList = std::vector<std::pair<std::string, std::string>>;

// The run's execution options not at their default: what its schedules record.
OptionList execution_options(const Run& r);

// weft replay and minimize: the options a weft3 schedule records, set in *r. One given on
// the command line too must have the recorded value: "" or one line naming the first
// that does not, rather than replaying another execution.
std::string apply_recorded_options(const Schedule& s, const std::vector<std::string>& given, Run* r);

// weft replay's and minimize's SCHEDULE: a file weft wrote, or the schedule itself (a
// string that names no file and starts like one). false: *error, one line.
bool read_schedule_argument(const std::string& arg, std::string* schedule, std::string* error);

// Whether the text report is coloured: a terminal reads it (https://no-color.org).
bool colour_report(const Run& r);

// A validator for an option with a fixed set of values, naming them when the value is wrong.
CLI::Validator one_of(std::vector<std::string> values);

// The options run, replay and minimize share, into `r`.
void add_run_options(CLI::App* app, Run& r);

}  // namespace weft::cli
