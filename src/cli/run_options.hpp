#pragma once
// weft run's, replay's and minimize's options: the Run they fill, the command-line options
// that fill it, and those that shape an execution, which a schedule records (weft3) and a
// replay takes back from it.
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/run_config.hpp"
#include "core/schedule.hpp"

namespace weft::cli {

// One default, the table's.
inline const std::string kDefaultStrategy = RunConfig{}.strategy;

// The options weft run hands its fork server (core/run_config.def) and those it keeps.
struct Run : RunConfig {
  std::string json;
  std::string schedule_out;
  std::string trace_out;
  std::string html;
  bool quiet = false;
  std::string color = "auto";  // --color auto|always|never
  bool gdb = false;
  bool gdb_batch = false;  // --gdb-batch: gdb runs the replay, prints the stack, quits
  bool stats = false;
  std::string schedule_file;       // replay, minimize: the schedule's file, or the schedule itself
  std::vector<std::string> given;  // replay, minimize: the execution options on the command line
  std::vector<std::string> command;
  std::string shard;         // --shard I/N ("" none)
  std::uint32_t shards = 0;  // --shards N: a Kubernetes Indexed Job's count
  std::uint32_t jobs = 0;    // --jobs N (0: WEFT_JOBS, else the cores)
};

// weft replay and minimize: the options a weft3 schedule records, set in *r. One given on
// the command line too must have the recorded value: "" or one line naming the first
// that does not, rather than replaying another execution.
std::string apply_recorded_options(const Schedule& s, const std::vector<std::string>& given,
                                   Run* r);

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
