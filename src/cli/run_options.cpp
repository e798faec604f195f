#include "cli/run_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/expected_exit.hpp"
#include "cli/number_option.hpp"
#include "core/numbers.hpp"
#include "weft/environment.hpp"

namespace weft::cli {
namespace {

// How an option reads on the command line ("--races report", "--real-time"), or that it
// is not there.
std::string option_words(const std::string& name, const std::string* value) {
  if (value == nullptr) return "no --" + name + " (the default)";
  return "--" + name + (is_execution_flag(name) ? "" : " " + *value);
}

}  // namespace

std::string apply_recorded_options(const Schedule& s, const std::vector<std::string>& given,
                                   Run* r) {
  for (const auto& [name, value] : s.options)
    if (RunConfig probe; !set_execution_option(name, value, &probe).empty())
      return "the schedule records option " + name + "=" + value +
             ", which this weft does not take (was it written by a newer weft?)";
  auto find = [](const OptionList& list, const std::string& name) -> const std::string* {
    for (const auto& [n, v] : list)
      if (n == name) return &v;
    return nullptr;
  };
  const OptionList asked = execution_options(*r);
  for (const std::string& name : given) {
    const std::string* was = find(s.options, name);
    const std::string* now = find(asked, name);
    if ((was == nullptr) != (now == nullptr) || (was != nullptr && *was != *now))
      return "the schedule was recorded with " + option_words(name, was) + ", this command gives " +
             option_words(name, now) + ": leave --" + name +
             " out to replay the recorded execution";
  }
  for (const auto& [name, value] : s.options) set_execution_option(name, value, r);
  return "";
}

bool read_schedule_argument(const std::string& arg, std::string* schedule, std::string* error) {
  std::error_code ec;
  std::string why;
  if (std::filesystem::exists(arg, ec)) {
    if (detail::read_schedule_line(arg, schedule, &why)) return true;
    *error = "schedule file '" + arg + "' " + (why.empty() ? "cannot be read" : why);
    return false;
  }
  if (arg.rfind("weft", 0) == 0 && arg.find('.') != std::string::npos) {
    *schedule = arg;
    while (!schedule->empty() && (schedule->back() == ' ' || schedule->back() == '\n'))
      schedule->pop_back();
    if (detail::schedule_line_is_text(*schedule, &why)) return true;
    *error = "the schedule given " + why;
    return false;
  }
  *error = "schedule file '" + arg +
           "' not found (give the file weft run wrote, or the "
           "schedule itself: weft3....)";
  return false;
}

bool colour_report(const Run& r) {
  if (r.color != "auto") return r.color == "always";
  const char* term = std::getenv("TERM");
  return r.json != "-" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr &&
         !(term != nullptr && std::string(term) == "dumb");
}

CLI::Validator one_of(std::vector<std::string> values) {
  return CLI::Validator(
      [values](std::string& v) -> std::string {
        for (const std::string& ok : values)
          if (v == ok) return "";
        std::string list;
        for (const std::string& ok : values) list += (list.empty() ? "" : ", ") + ok;
        return "must be one of " + list + ", not '" + v + "'";
      },
      "");
}

namespace {

// How the result is shown: the report, its JSON, its web page and trace.
void add_report_options(CLI::App* app, Run& r) {
  app->add_option("--json", r.json,
                  "also write the result as JSON to FILE; '-' writes\n"
                  "it to stdout instead of the text report (a\n"
                  "replayed program's own stdout then goes to stderr)")
      ->option_text("FILE");
  app->add_flag("--quiet,-q", r.quiet,
                "print no report when no bug is found (bugs and\n"
                "errors are always reported)");
  app->add_option("--color", r.color,
                  "colour the text report: auto (when stdout is a\n"
                  "terminal and NO_COLOR is not set), always, never")
      ->option_text("WHEN")
      ->check(one_of({"auto", "always", "never"}));
  app->add_option("--html", r.html,
                  "when a bug is found, write its whole story to\n"
                  "FILE as one self-contained web page: where it\n"
                  "failed, a deadlock's cycle, a race's accesses, a\n"
                  "swimlane per thread with the steps, their source\n"
                  "lines, preemptions and happens-before arrows, the\n"
                  "races seen, the output and the replay command\n"
                  "(no bug: no file, said)")
      ->option_text("FILE");
  app->add_option("--trace-out", r.trace_out,
                  "when a bug is found, write its interleaving to\n"
                  "FILE in the Chrome/Perfetto trace-event format\n"
                  "(open it in ui.perfetto.dev): a track per thread,\n"
                  "a slice per step, happens-before arrows,\n"
                  "preemptions and the bug marked")
      ->option_text("FILE");
}

// Where an execution ends and what is wrong with its end: its length, a hang, its output,
// its exit status.
void add_execution_end_options(CLI::App* app, Run& r) {
  app->add_option("--steps", r.steps,
                  "an execution longer than N steps (scheduling\n"
                  "points) is reported as a livelock when its last\n"
                  "steps spin or yield, else cut there as a long\n"
                  "execution, with a warning (1 to 50000000;\n"
                  "default " +
                      std::to_string(RunConfig{}.steps) + ")")
      ->option_text("N")
      ->transform(number_option(weft::kStepsNumber));
  app->add_option("--hang-timeout", r.hang_timeout_s,
                  "an execution in which no thread reaches a\n"
                  "scheduling point for SECONDS (a thread blocked in\n"
                  "a call weft does not model, say) is reported as a\n"
                  "hang, with where the running thread was (0.01 to\n"
                  "86400; default " +
                      seconds_text(RunConfig{}.hang_timeout_s) + ")")
      ->option_text("SECONDS")
      ->transform(number_option(weft::kHangTimeoutSeconds));
  app->add_option("--check-output", r.check_output,
                  "compare each execution's stdout (or FILE, which\n"
                  "the program writes; weft removes it before each\n"
                  "execution) with the serial execution's, run first:\n"
                  "a difference is a wrong-output bug, with a diff")
      ->option_text("[FILE]")
      ->expected(0, 1)
      ->default_str("-")
      ->check(CLI::Validator(
          [](const std::string& v) {
            return v.empty() ? std::string(
                                   "'' is not valid: give a file the program writes, or no "
                                   "value for its stdout")
                             : std::string();
          },
          ""));
  app->add_flag("--full-trace", r.full_trace,
                "reports (text, JSON, --html, --trace-out) show\n"
                "every step of the bug's execution (default: of a\n"
                "longer one than 1000 steps, the last 1000; the\n"
                "schedule replays every step either way)");
  app->add_option("--expect-exit", r.expect_exit,
                  "the exit status the program returns by design:\n"
                  "an execution that exits with another is an\n"
                  "exit-code bug; 'any' accepts every status (signals\n"
                  "and failed checks are bugs still; default 0)")
      ->option_text("N|any")
      ->transform(CLI::Validator(
          [](std::string& text) {
            ExpectedExit e;
            return ExpectedExit::parse(text, &e);
          },
          ""));
}

// What the program's model lets happen: time, preemptions, races, timeouts, wakeups,
// fairness.
void add_model_options(CLI::App* app, Run& r) {
  app->add_flag("--real-time", r.real_time,
                "clock_gettime, gettimeofday and time read real\n"
                "time (default: virtual time, the same in every\n"
                "execution, advancing with the steps taken and the\n"
                "sleeps asked for; sleeps yield either way)");
  app->add_option("--no-preempt-in", r.no_preempt_in,
                  "no preemption inside this code, run as if atomic:\n"
                  "shared objects by file name, source files by name\n"
                  "or path suffix, functions by symbol name without\n"
                  "parameters; shell globs; an inlined function\n"
                  "counts as its caller; a pattern that names nothing\n"
                  "is a warning (default: none)")
      ->option_text("PATTERN[,PATTERN...]")
      ->check([](const std::string& v) -> std::string {
        if (v.empty() || PatternsRule.check(v) != nullptr)
          return "expects PATTERN[,PATTERN...] with no empty pattern, got '" + v + "'";
        return "";
      });
  app->add_option("--races", r.races,
                  "data races in instrumented programs: fail (the\n"
                  "default) makes the first race the bug; report\n"
                  "lists each race (a pair of source lines) once and\n"
                  "goes on, to find what the race leads to; off does\n"
                  "not look for races")
      ->option_text("off|report|fail")
      ->check(one_of({"off", "report", "fail"}));
  app->add_option("--preempt-on", r.preempt_on,
                  "which plain memory accesses of instrumented code\n"
                  "are scheduling points besides synchronisation:\n"
                  "racy (the default), those seen racing in an\n"
                  "earlier execution (the search then starts over);\n"
                  "all, every one; sync, none (in every mode, a loop\n"
                  "polling plain memory becomes one: troubleshooting.md)")
      ->option_text("sync|racy|all")
      ->check(one_of({"sync", "racy", "all"}));
  app->add_flag("--explore-timeouts", r.explore_timeouts,
                "a timed wait may also time out while other threads\n"
                "can run, as a choice the strategy explores\n"
                "(default: it times out only when no other thread\n"
                "can run)");
  app->add_flag("--spurious-wakeups", r.spurious_wakeups,
                "condition variable and futex waits may also wake\n"
                "with nobody waking them, as a choice the strategy\n"
                "explores, marked 'spurious wakeup' in the report\n"
                "(default: never)");
  app->add_flag("--no-state-cache", r.no_state_cache,
                "dfs, pb and db run every schedule (default: they\n"
                "skip a branch whose happens-before state they\n"
                "explored before, CHESS state caching)");
  app->add_flag("--no-fair", r.no_fair,
                "explore unfair schedules too (default: a thread\n"
                "that yields, sleeps or spins waits until the\n"
                "others have run, and an execution past --steps is\n"
                "a livelock)");
}

}  // namespace

void add_run_options(CLI::App* app, Run& r) {
  add_report_options(app, r);
  add_execution_end_options(app, r);
  add_model_options(app, r);
  // For the help only: CLI11 leaves the program and what follows it unparsed
  // (prefix_command), for take_program(), so that the program's options stay its own.
  app->add_option("command", r.command,
                  "the program to test (an ELF executable, looked up\n"
                  "in PATH when its name has no '/') and its\n"
                  "arguments: weft's options end at the program's\n"
                  "path, or at '--'; every execution gets the same\n"
                  "arguments and stdin")
      ->option_text("PROGRAM [ARGS...]")
      ->expected(0)
      ->allow_extra_args(false);
  app->prefix_command();
}

}  // namespace weft::cli
