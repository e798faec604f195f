// weft: the command line. `weft run` tests a whole program, `weft replay` reruns one
// schedule of it, `weft strategies` lists the search strategies.
//
// Exit status (a contract): 0 no bug found (budget spent or space exhausted), 1 a bug
// was found, 2 usage or tool error, 128 + the signal (130 SIGINT, 143 SIGTERM) when one
// interrupted the run.
#include <CLI/CLI.hpp>
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/command_support.hpp"
#include "cli/execution_numbering.hpp"
#include "cli/merge_command.hpp"
#include "cli/merge_results.hpp"
#include "cli/merged_report.hpp"
#include "cli/program_lookup.hpp"
#include "cli/result_file.hpp"
#include "cli/run_options.hpp"
#include "cli/worker_processes.hpp"
#include "cli/number_option.hpp"
#include "cli/output_file.hpp"
#include "cli/output_paths.hpp"
#include "cli/program_check.hpp"
#include "cli/run_directory.hpp"
#include "cli/shard_source.hpp"
#include "core/checkpoint.hpp"
#include "cli/stdout_buffer.hpp"
#include "cli/terminal_width.hpp"
#include "core/expected_exit.hpp"
#include "core/jobs_layout.hpp"
#include "core/run_record.hpp"
#include "core/schedule.hpp"
#include "report/text_width.hpp"
#include "strategy/registry.hpp"
#include "weft/environment.hpp"

namespace fs = std::filesystem;

namespace {

using weft::cli::add_run_options;
using weft::cli::add_worker;
using weft::cli::apply_recorded_options;
using weft::cli::catch_stop_signals;
using weft::cli::collect;
using weft::cli::colour_report;
using weft::cli::ControlFile;
using weft::cli::fail;
using weft::cli::find_in_path;
using weft::cli::Instance;
using weft::cli::kBug;
using weft::cli::kDefaultStrategy;
using weft::cli::kError;
using weft::cli::kill_workers;
using weft::cli::kOk;
using weft::cli::Merge;
using weft::cli::merge_command;
using weft::cli::merged_report;
using weft::cli::one_of;
using weft::cli::read_file;
using weft::cli::read_schedule_argument;
using weft::cli::resolve_program;
using weft::cli::Run;
using weft::cli::runtime_path;
using weft::cli::schedule_path;
using weft::cli::schedule_written;
using weft::cli::spawn;
using weft::cli::status_of;
using weft::cli::stop_signal;
using weft::cli::stops;
using weft::cli::wait_for_workers;
using weft::cli::wait_with_progress;
using weft::cli::workers_lead_groups;
using weft::cli::WriteErrors;

// --stats: the execution tree's memory (GAMBIT Figure 5) and the work done.
void print_stats(const std::string& json_text) {
  const auto j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.contains("coverage")) return;
  const auto& c = j["coverage"];
  std::ostringstream text;
  const std::uint64_t created = c.value("nodes_created", std::uint64_t{0});
  const std::uint64_t peak = c.value("peak_nodes", std::uint64_t{0});
  const std::uint64_t executions = j.value("executions", std::uint64_t{0});
  const double seconds = j.value("elapsed_s", 0.0);
  text << "stats: " << executions << " executions in " << seconds << " s ("
       << (seconds > 0 ? static_cast<std::uint64_t>(executions / seconds) : 0) << "/s)";
  if (created != 0)
    text << "; execution tree: " << created << " nodes created, peak " << peak << " alive at once ("
         << peak * 48 / 1024 << " KiB)";
  else
    text << "; no execution tree (a sampling strategy)";
  if (const std::uint64_t restored = j.value("restored_executions", std::uint64_t{0});
      restored != 0)
    text << "; " << restored << " executions in a restored process (--isolate restore)";
  text << "\n";
  std::cout << weft::fit_lines(text.str(), weft::cli::terminal_width());
}

enum class Mode { kRun, kReplay, kMinimize };

// The number of workers: --jobs N, else WEFT_JOBS, else the cores. Each of the `shards`
// shards' workers runs one part of shards x workers, at most Shard::kMaxCount: more asked
// for is refused, the cores are cut down to fit.
bool jobs_wanted(std::uint32_t option, std::uint32_t shards, std::uint32_t* jobs,
                 std::string* error) {
  std::string asked = option != 0 ? "--jobs " + std::to_string(option) : "";
  *jobs = option;
  // Set but empty is refused as --jobs '' is, not taken for unset.
  if (const char* v = std::getenv("WEFT_JOBS"); option == 0 && v != nullptr) {
    std::uint64_t n = 0;
    if (std::string e = weft::read_number(v, weft::kJobsNumber, &n); !e.empty()) {
      *error = "WEFT_JOBS=" + e;
      return false;
    }
    *jobs = static_cast<std::uint32_t>(n);
    asked = "WEFT_JOBS=" + std::to_string(n);
  }
  const std::uint64_t most = std::max<std::uint64_t>(1, weft::Shard::kMaxCount / shards);
  if (*jobs == 0) {
    *jobs = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(std::max(1u, std::thread::hardware_concurrency()), most));
    return true;
  }
  if (*jobs > most) {
    *error = asked + " with " + std::to_string(shards) + " shards splits the search into " +
             std::to_string(std::uint64_t{shards} * *jobs) + " parts, more than " +
             std::to_string(weft::Shard::kMaxCount) + ": give at most --jobs " +
             std::to_string(most) + ", or fewer shards";
    return false;
  }
  return true;
}

// --gdb: gdb's commands, written to `script`. weft's runtime is preloaded into the
// program only: in gdb it would turn gdb into the fork server. So LD_PRELOAD (and the
// LD_BIND_NOW weft adds) reach the program through gdb's `set environment`, with no shell
// in between; the WEFT_* variables stay in gdb's environment, which the program inherits.
// The execution runs in a child of the fork server: gdb follows it and lets the server go
// on, so that the server still waits for it and writes the replay's result. A breakpoint
// where the runtime records a bug (every kind passes there) stops gdb in the failing thread.
bool write_gdb_script(const fs::path& script, const std::vector<std::string>& preload_env,
                      bool interactive) {
  std::ofstream out(script);
  out << "set startup-with-shell off\n";
  for (const std::string& e : preload_env) out << "set environment " << e << "\n";
  out << "set follow-fork-mode child\n"
         "set detach-on-fork on\n"
         "set breakpoint pending on\n"
         "set $weft_at_bug = 0\n"
         "break weft::explorer::ChildSink::on_bug\n"
         "commands\n"
         "set $weft_at_bug = 1\n"
         "echo weft: the replayed execution shows its bug here: 'bt' for the stack ('up' to the "
         "program's frames), 'continue' for weft's report\\n\n"
         "end\n"
         // Quitting at the bug lets the execution go on to record it (gdb would kill it, and
         // the report would show a killed process instead).
         "define hook-quit\n"
         "if $weft_at_bug && $_thread != 0\n"
         "detach\n"
         "end\n"
         "end\n";
  if (interactive)
    out << "echo weft: type 'run' to replay the execution; gdb stops where weft's runtime "
           "records its bug (breakpoint 1)\\n\n";
  return static_cast<bool>(out);
}

// After gdb: what is left of the replay (the fork server, writing its result once the
// execution gdb followed has ended) was adopted by weft, its subreaper. Waited for.
// A second SIGTERM leaves them (each watches weft's lifeline, and ends when weft does).
void wait_for_orphans() {
  for (;;) {
    const pid_t r = waitpid(-1, nullptr, 0);
    if (r < 0 && errno == EINTR && stops() < 2) continue;
    if (r < 0) return;
  }
}

// --checkpoint: what shapes the search, which a resumed run must have the same. The
// budget (--executions, --time) may change: it counts every run's executions together.
weft::OptionList search_options(const Run& r, const weft::Shard& shard) {
  std::string args;
  for (std::size_t i = 1; i < r.command.size(); ++i) args += (i > 1 ? " " : "") + r.command[i];
  weft::OptionList o = weft::search_options(r);
  o.emplace_back("--shard", std::to_string(shard.index) + "/" + std::to_string(shard.count));
  o.emplace_back("arguments", args);
  return o;
}

// --checkpoint FILE before the run: a search that can be saved; FILE, when it exists, one
// of this search (else one line, exit 2), or a complete one, whose result is said instead
// of searching again (*done: the exit status). *jobs becomes 1.
bool check_checkpoint(const Run& r, const std::string& program, const weft::Shard& shard,
                      std::uint32_t* jobs, int* done) {
  *done = -1;
  if (r.checkpoint.empty()) return true;
  if (r.jobs > 1) {
    *done = fail("--checkpoint runs one worker: --jobs " + std::to_string(r.jobs) +
                 " cannot be saved yet (give --jobs 1, or leave --jobs out)");
    return false;
  }
  *jobs = 1;
  std::string error;
  if (!weft::make_strategy(r.strategy, r.seed, &error, {.syntax_only = true})
           ->distribution()
           .resumable()) {
    *done = fail("--checkpoint cannot save strategy '" + r.strategy + "'" +
                 (r.strategy == kDefaultStrategy ? " (the default)" : "") +
                 "; it saves dfs, pb, db, dpor, bf, vb, random, pct, pos and a portfolio of them: "
                 "choose one with --strategy");
    return false;
  }
  std::error_code ec;
  if (!fs::exists(r.checkpoint, ec)) return true;
  weft::Checkpoint saved;
  if (!weft::read_checkpoint(r.checkpoint, &saved, &error)) {
    *done = fail(error);
    return false;
  }
  const std::uint64_t fingerprint = weft::program_fingerprint(program);
  if (std::string e =
          weft::checkpoint_mismatch(r.checkpoint, saved, fingerprint, search_options(r, shard));
      !e.empty()) {
    *done = fail(e);
    return false;
  }
  const std::string counts =
      std::to_string(saved.executions) + " executions" +
      (saved.classes != 0 ? ", " + std::to_string(saved.classes) + " happens-before classes" : "") +
      ", " + std::to_string(saved.bugs) + " bug" + (saved.bugs == 1 ? "" : "s") + " found";
  if (saved.complete) {
    std::cout << "weft: the search saved in " << r.checkpoint << " is complete (" << counts
              << "): nothing is left to resume; remove the file to search again\n";
    *done = saved.bugs == 0 ? kOk : kBug;
    return false;
  }
  if (!r.quiet)
    std::cerr << "weft: resuming the search saved in " << r.checkpoint << " (" << counts << ")\n";
  return true;
}

// What the fork servers left of a finished run (merged, for several).
struct Outcome {
  std::string json, report, output, found;
  std::string error;  // the run's error ("" none)
  weft::cli::ResultFile trace, page;
};

// A word as a POSIX shell reads it back: as it is when plain, else in single quotes.
std::string shell_word(const std::string& word) {
  const bool plain =
      !word.empty() &&
      word.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=@%+,-") ==
          std::string::npos;
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The whole command that replays the run's bug, every argument quoted for a shell: the
// HTML page shows it (the schedule records the options, weft3).
std::string replay_command(const Run& r, Mode mode, const std::string& program) {
  std::string command =
      "weft replay " +
      shell_word(mode == Mode::kReplay ? r.schedule_file : schedule_path(r.schedule_out, program)) +
      " --";
  for (const std::string& word : r.command) command += " " + shell_word(word);
  return command;
}

// "schedule written to FILE; replay it with: weft replay FILE -- PROGRAM": the schedule
// records the run's options (weft3), so the command repeats none.
std::string replay_hint(const Run& r, const std::string& file) {
  return schedule_written(
      file, "weft replay " + file + " -- " + r.command[0] + (r.command.size() > 1 ? " ..." : ""));
}

// Writes the run's files, each checked, and prints its report (to stdout, which
// StdoutBuffer writes last). The exit status.
int finish_run(const Run& r, Mode mode, const std::string& program, Outcome o) {
  const bool replay = mode == Mode::kReplay;
  const bool has_bug = !o.found.empty();
  const bool has_error = !o.error.empty();
  WriteErrors errors;
  if (r.json == "-")
    std::cout << o.json << "\n";
  else if (!r.json.empty())
    errors.add(weft::cli::write_output(r.json, "the JSON result", o.json += '\n'));
  if (r.json != "-" &&
      (!r.quiet || has_bug || has_error || stop_signal() != 0)) {  // (an interrupted run says so)
    if (has_bug && !o.output.empty() && !replay)
      std::cout << "output of the failing execution:\n"
                << o.output << (o.output.back() == '\n' ? "" : "\n") << "\n";
    std::cout << o.report;
  }
  if (!r.trace_out.empty() && has_bug) errors.add(o.trace.copy_to(r.trace_out, "the trace"));
  if (!r.html.empty() && has_bug) errors.add(o.page.copy_to(r.html, "the HTML report"));
  // Nothing to picture without a bug: said, and no file is left looking like a report.
  if ((!r.trace_out.empty() || !r.html.empty()) && !has_bug && !has_error && r.json != "-")
    std::cerr << "weft: no bug found, so no interleaving to write (--trace-out, --html)\n";
  if (r.stats && r.json != "-" && !has_error) print_stats(o.json);
  if (has_bug && !replay) {
    const std::string file = schedule_path(r.schedule_out, program);
    const std::string e = weft::cli::write_output(file, "the schedule", o.found + "\n");
    errors.add(e);
    if (e.empty() && r.json != "-") std::cout << replay_hint(r, file);
  }
  return status_of(errors.report(has_error ? kError : has_bug ? kBug : kOk));
}

// The files weft writes for this command (the program writes --check-output's, and weft
// removes it before each execution), checked before it starts: "" or the first problem.
std::string output_problem(const Run& r, Mode mode, const std::string& program,
                           const std::string& runtime) {
  using weft::cli::NamedPath;
  std::vector<NamedPath> outputs = {
      {"--json", r.json}, {"--html", r.html}, {"--trace-out", r.trace_out}};
  if (r.check_output != "-") outputs.push_back({"--check-output", r.check_output});
  if (!r.checkpoint.empty()) outputs.push_back({"--checkpoint", r.checkpoint});
  // The schedule replayed or minimised is read before the run: minimize may write the
  // simpler one in its place (by default it does, NAME.weft-schedule), nothing else may.
  std::vector<NamedPath> with_schedule = outputs;
  if (mode != Mode::kReplay)
    with_schedule.push_back(
        {r.schedule_out.empty() ? "the default --schedule-out" : "--schedule-out",
         schedule_path(r.schedule_out, program)});
  for (const NamedPath& o : with_schedule)
    if (std::string why = o.name == "--check-output" ? "" : weft::cli::unwritable(o.name, o.path);
        !why.empty())
      return why;
  std::error_code ec;
  const std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  if (std::string why = weft::cli::output_clash(with_schedule, {{"the program under test", program},
                                                                {"weft's runtime", runtime},
                                                                {"weft itself", self}});
      !why.empty() || mode == Mode::kRun)
    return why;
  return weft::cli::output_clash(outputs, {{std::string("the schedule file to ") +
                                                (mode == Mode::kReplay ? "replay" : "minimize"),
                                            r.schedule_file}});
}

// What the fork server is told (core/run_config.def), but each worker's part of the
// search: the run's options, what it replays, and how it reports.
weft::RunConfig server_config(const Run& r, Mode mode, const std::string& program,
                              const std::string& schedule, const fs::path& results,
                              std::uint32_t jobs, const weft::Shard& shard) {
  const bool replay = mode == Mode::kReplay;
  weft::RunConfig c = r;
  c.mode = replay ? "replay" : mode == Mode::kMinimize ? "minimize" : "run";
  // A progress line on a terminal's stderr, unless asked for quiet (one worker only:
  // several would write over each other).
  c.progress = !r.quiet && jobs == 1 && isatty(STDERR_FILENO);
  // In a file of its own, kept as it was written.
  c.schedule_in = schedule.empty() ? "" : (results / "replay.weft-schedule").string();
  c.coloured = colour_report(r);
  c.columns = std::min<std::size_t>(weft::cli::terminal_width(), weft::kColumnsNumber.hi);
  // A replay's program writes to the terminal, but stdout must stay pure JSON.
  c.stdout_to_stderr = replay && r.json == "-";
  c.checkpoint = replay || r.checkpoint.empty() ? "" : fs::absolute(r.checkpoint).string();
  if (!c.checkpoint.empty())  // what the server saves with the search
    c.checkpoint_options = weft::encode_checkpoint_options(search_options(r, shard));
  c.replay_command = replay_command(r, mode, program);
  return c;
}

// What a run needs before it starts: checked, or the exit status of a bad command line.
struct Plan {
  std::string program, runtime, gdb_path;
  std::string schedule;  // replay, minimize: the schedule given
  weft::cli::ShardChoice sharding;
  std::uint32_t jobs = 1;
};

// The program, the runtime, the outputs, gdb; for a replay, the schedule (and the options
// it records, set in *r); for a run, the strategy, the shard, the workers and the
// checkpoint. -1, or the exit status (the error said).
int plan_launch(Run& r, Mode mode, Plan* p) {
  if (r.command.empty())
    return fail("no program given (usage: weft run [options] -- PROGRAM [ARGS...])");
  std::string why;
  p->program = resolve_program(r.command[0], &why);
  if (p->program.empty()) return fail(why);
  p->runtime = runtime_path();
  if (p->runtime.empty()) return fail("cannot find weft's runtime (libweft.so) next to this weft");
  if (std::string e = output_problem(r, mode, p->program, p->runtime); !e.empty()) return fail(e);
  p->gdb_path = r.gdb || r.gdb_batch ? find_in_path("gdb") : "";
  if ((r.gdb || r.gdb_batch) && p->gdb_path.empty())
    return fail(std::string(r.gdb_batch ? "--gdb-batch" : "--gdb") +
                " needs gdb, which is not in PATH (install it: apt-get install gdb)");
  if (mode != Mode::kRun) {
    if (!read_schedule_argument(r.schedule_file, &p->schedule, &why)) return fail(why);
    weft::Schedule recorded;
    if (!weft::decode_schedule(
            p->schedule, &recorded, &why,
            weft::max_decisions_for(weft::recorded_step_bound(p->schedule, r.steps))))
      return fail(why);
    if (recorded.records_options)
      if (std::string e = apply_recorded_options(recorded, r.given, &r); !e.empty()) return fail(e);
    return -1;
  }
  std::string error;
  weft::StrategyOptions options{.syntax_only = true};
  if (!r.bound.empty() && !weft::parse_bound_option(r.bound, &options.preemption_bound, &error))
    return fail(error);
  if (!weft::make_strategy(r.strategy, r.seed, &error, options)) return fail(error);
  if (!weft::cli::resolve_shard(r.shard, r.shards, &p->sharding, &error,
                                [](const char* n) { return std::getenv(n); }))
    return fail(error);
  if (!jobs_wanted(r.jobs, p->sharding.shard.count, &p->jobs, &error)) return fail(error);
  if (int done; !check_checkpoint(r, p->program, p->sharding.shard, &p->jobs, &done)) return done;
  return -1;
}

// A sharded run says which shard it is, and where that came from; Bazel's status file is
// touched. -1, or the exit status.
int announce_shard(const Run& r, const Plan& p) {
  const weft::Shard shard = p.sharding.shard;
  if (!r.quiet && shard.sharded())
    std::cerr << "weft: shard " << shard.index << "/" << shard.count << " (from "
              << p.sharding.source << ")"
              << (p.jobs > 1 ? ", " + std::to_string(p.jobs) + " workers" : "") << "\n";
  if (!p.sharding.ignored.empty())
    std::cerr << "weft: --shard " << r.shard << " used; ignored: " << p.sharding.ignored << "\n";
  // Bazel: a test that shards says so by touching this file.
  if (shard.sharded() && !p.sharding.status_file.empty())
    if (std::string e =
            weft::cli::touch_output(p.sharding.status_file, "Bazel's shard status file");
        !e.empty())
      return fail(e);
  return -1;
}

// How each worker is started: the program's command line (under gdb, gdb's, with the
// script that preloads weft into the program only) and the environment weft adds.
struct Start {
  std::vector<std::string> argv, env;
  int lifeline[2] = {-1, -1};  // --gdb: the pipe whose end tells the server weft is gone
};

// -1, or the exit status.
int prepare_start(const Run& r, const Plan& p, const fs::path& results, weft::RunConfig* config,
                  Start* start) {
  const char* preload = std::getenv("LD_PRELOAD");
  std::vector<std::string> preload_env = {"LD_PRELOAD=" + p.runtime +
                                          (preload ? ":" + std::string(preload) : "")};
  // Every symbol bound once, in the fork server, rather than lazily again in each
  // execution's child (make bench: about a tenth of an execution's cost).
  if (std::getenv("LD_BIND_NOW") == nullptr) {
    preload_env.push_back("LD_BIND_NOW=1");
    config->bind_now_added = true;
  }
  start->argv = r.command;
  start->argv[0] = p.program;
  if (!r.gdb && !r.gdb_batch) {
    start->env = preload_env;
    return -1;
  }
  const fs::path script = results / "replay.gdb";
  if (!write_gdb_script(script, preload_env, !r.gdb_batch))
    return status_of(fail("cannot write " + script.string()));
  std::vector<std::string> g = {p.gdb_path, "-q", "-x", script.string()};
  // Batch: run, show where it stopped, then let the execution end so that weft reports it.
  if (r.gdb_batch) g.insert(g.end(), {"-batch", "-ex", "run", "-ex", "bt", "-ex", "continue"});
  g.push_back("--args");
  start->argv.insert(start->argv.begin(), g.begin(), g.end());
  // The fork server outlives gdb, which lets it go: weft adopts it, to wait for it. Its
  // parent is gdb, not weft: it watches a pipe that only weft holds open.
  prctl(PR_SET_CHILD_SUBREAPER, 1);
  if (pipe2(start->lifeline, O_CLOEXEC) == 0)
    config->lifeline_fd = std::to_string(start->lifeline[0]);
  // Ctrl-C is gdb's, to interrupt the program.
  signal(SIGQUIT, SIG_IGN);
  return -1;
}

// --jobs: worker j runs shard index + count * j of count * jobs: together exactly this
// shard (the whole search when not sharded), sharing the word that stops them at the
// first bug (explore/jobs_control.hpp). Each gets its options file. -1, or the exit status.
int start_workers(const Run& r, const Plan& p, const fs::path& results,
                  const weft::RunConfig& config, const Start& start,
                  std::vector<Instance>* instances, ControlFile* control_file) {
  const std::uint32_t jobs = p.jobs;
  const weft::Shard shard = p.sharding.shard;
  const bool gdb = r.gdb || r.gdb_batch;
  const fs::path control = results / "jobs-control";
  if (jobs > 1)
    if (std::string error = control_file->make(control, jobs); !error.empty())
      return status_of(fail(error));
  workers_lead_groups(!gdb);
  // Numbers of one width: every worker's environment (its run file's path) is as long as
  // the others', and so its initial stack lies where theirs does (see spawn()'s fixed_layout).
  auto padded = [](std::uint64_t n, std::uint64_t max) {
    std::string s = std::to_string(n);
    return std::string(std::to_string(max).size() - s.size(), '0') + s;
  };
  instances->resize(jobs);
  for (std::uint32_t j = 0; j < jobs; ++j) {
    Instance& in = (*instances)[j];
    in.results = jobs == 1 ? results : results / ("job-" + padded(j, jobs - 1));
    std::error_code ec;
    fs::create_directories(in.results, ec);
    weft::RunConfig worker = config;
    // Always set: a WEFT_SHARD of the caller's (meant for WEFT_TEST binaries) must not
    // reach the fork server, which would shard a search weft run believes whole.
    const weft::Shard part{shard.index + shard.count * j, shard.count * jobs};
    worker.run_shard = std::to_string(part.index) + "/" + std::to_string(part.count);
    if (jobs > 1) {
      worker.jobs_control = control.string();
      worker.jobs_worker = j;
      worker.jobs_workers = jobs;
    }
    const fs::path options = in.results / weft::kRunConfigFile;
    if (std::string e = weft::cli::write_output(
            options.string(), "the run's options for the program", weft::encode_run_config(worker));
        !e.empty()) {
      kill_workers();
      return status_of(fail(e));
    }
    std::vector<std::string> e = start.env;
    e.push_back(std::string(weft::kRunConfigVariable) + "=" + options.string());
    in.group = !gdb;
    in.pid = spawn(e, start.argv, in.group, jobs > 1 || !r.checkpoint.empty(), start.lifeline[0]);
    if (in.pid < 0) {
      const std::string why = std::strerror(errno);
      kill_workers();
      return status_of(fail("fork failed: " + why));
    }
    add_worker(in.pid);
  }
  return -1;
}

// Several workers' (or a shard's) results as one: the first bug's worker's files shown,
// the JSON merged and renumbered, the text report and page renumbered. -1, or the exit
// status.
int merge_workers(const Run& r, const Plan& p, std::vector<Instance>& instances, Outcome* o) {
  const std::uint32_t jobs = p.jobs;
  const weft::Shard shard = p.sharding.shard;
  std::vector<weft::cli::ShardResult> parts;
  for (std::uint32_t j = 0; j < jobs; ++j) {
    auto parsed = nlohmann::ordered_json::parse(instances[j].json, nullptr, false);
    if (parsed.is_discarded())
      return status_of(fail("worker " + std::to_string(j) + " wrote no valid result"));
    parts.push_back({"worker " + std::to_string(j), std::move(parsed)});
  }
  std::vector<std::uint32_t> expected;
  for (std::uint32_t j = 0; j < jobs; ++j) expected.push_back(shard.index + shard.count * j);
  // The whole search ran here: its executions are numbered as they ran.
  weft::cli::ExecutionNumbering numbering;
  if (!shard.sharded())
    for (std::uint32_t j = 0; j < jobs; ++j)
      if (std::string e = numbering.add_part(parts[j].json, j, jobs); !e.empty())
        return status_of(fail("worker " + std::to_string(j) + " wrote an invalid result: " + e));
  // Without --keep-going the first bug stopped the others: it alone is the result.
  weft::cli::MergeOutcome m = weft::cli::merge_results(
      parts, shard.count * jobs, expected, !r.keep_going, jobs > 1 ? "worker" : "shard");
  if (!m.error.empty()) return status_of(fail(m.error));
  // The first bug's worker; without a bug, the first worker with an error, if any.
  Instance* shown = &instances[0];
  if (m.winner >= 0) {
    shown = &instances[static_cast<std::size_t>(m.winner)];
  } else {
    for (Instance& in : instances)
      if (!in.error.empty()) {
        shown = &in;
        break;
      }
  }
  // The result states what this run was: a shard of a larger search, or the whole.
  m.merged.erase("shards");
  if (shard.sharded())
    m.merged["shard"] = {
        {"index", shard.index}, {"count", shard.count}, {"source", p.sharding.source}};
  m.merged["jobs"] = jobs;
  numbering.renumber(&m.merged);
  // Moved, not copied: a long trace's files are tens of MB each.
  *o = Outcome{m.merged.dump(2, ' ', false, nlohmann::json::error_handler_t::replace),
               std::move(shown->report),
               std::move(shown->output),
               std::move(shown->found),
               m.merged.contains("error") && m.merged["error"].is_string()
                   ? m.merged["error"].get<std::string>()
                   : std::string(),
               std::move(shown->trace),
               std::move(shown->page)};
  if (jobs > 1) {
    o->report = merged_report(o->report, m.merged, jobs, numbering);
    o->page.replace(
        numbering.renumber(o->page.text(), m.merged.value("executions", std::uint64_t{0})));
  }
  return -1;
}

int launch(Run r, Mode mode) {
  Plan p;
  if (int status = plan_launch(r, mode, &p); status >= 0) return status;
  if (int status = announce_shard(r, p); status >= 0) return status;
  const bool gdb = r.gdb || r.gdb_batch;
  catch_stop_signals(gdb);          // gdb's Ctrl-C is gdb's
  weft::cli::RunDirectory run_dir;  // removed on every return below
  if (std::string error = run_dir.make(); !error.empty()) return status_of(fail(error));
  const fs::path results = run_dir.path();
  if (!p.schedule.empty())
    if (std::string e = weft::cli::write_output((results / "replay.weft-schedule").string(),
                                                "the schedule to replay", p.schedule + "\n");
        !e.empty())
      return status_of(fail(e));
  weft::RunConfig config =
      server_config(r, mode, p.program, p.schedule, results, p.jobs, p.sharding.shard);
  Start start;
  if (int status = prepare_start(r, p, results, &config, &start); status >= 0) return status;
  std::vector<Instance> instances;
  ControlFile control_file;
  if (int status = start_workers(r, p, results, config, start, &instances, &control_file);
      status >= 0)
    return status;
  if (start.lifeline[0] >= 0) close(start.lifeline[0]);  // the write end stays open
  if (p.jobs > 1 && !r.quiet && isatty(STDERR_FILENO)) wait_with_progress(instances, control_file);
  wait_for_workers(instances, control_file);
  if (gdb) wait_for_orphans();
  if (stops() >= 2)  // a second signal: no result (the temporary files are removed)
    return status_of(fail("stopped at once by a second signal: no result"));
  std::string problem;
  for (Instance& in : instances)
    if (problem.empty()) problem = collect(in);
  if (gdb && !problem.empty() && problem != "-")
    problem =
        "gdb ended before the replay did, so there is no report (in gdb: 'run', and "
        "'continue' at the bug)";
  run_dir.remove();
  if (problem == "-") return status_of(kError);
  if (!problem.empty()) return status_of(fail(problem));
  // One worker's files are the run's; several are merged, the first bug's worker's shown.
  Outcome o;
  if (p.jobs > 1 || p.sharding.shard.sharded()) {
    if (int status = merge_workers(r, p, instances, &o); status >= 0) return status;
  } else {
    Instance& in = instances[0];
    o = Outcome{std::move(in.json),  std::move(in.report), std::move(in.output),
                std::move(in.found), std::move(in.error),  std::move(in.trace),
                std::move(in.page)};
  }
  // gdb kills the execution it follows when it quits while that runs (not at the bug).
  if (gdb && o.json.find("the process was killed by signal 9") != std::string::npos)
    std::cerr << "weft: gdb killed the execution when it quit; the report shows how far it got\n";
  return finish_run(r, mode, p.program, std::move(o));
}

// weft run's search: its strategy, budget, seed, bugs and statistics.
void add_search_options(CLI::App* run_cmd, Run& run) {
  run_cmd
      ->add_option("--strategy,-s", run.strategy,
                   std::string("the search strategy, NAME[:ARGS] as 'weft\n"
                               "strategies' lists them (default ") +
                       kDefaultStrategy + ": pos*,\npct:3, random and pb take turns)")
      ->option_text("SPEC");
  run_cmd
      ->add_option("--executions,-n", run.executions,
                   "stop after N executions (0: no limit; default\n" +
                       std::to_string(Run{}.executions) +
                       "); a run also ends at the first bug (unless\n"
                       "--keep-going), at the --time limit, or when the\n"
                       "strategy has explored its whole space")
      ->option_text("N")
      ->transform(weft::cli::number_option(weft::kExecutionsNumber));
  run_cmd
      ->add_option("--time,-t", run.time_s,
                   "stop after SECONDS of exploring (default " + weft::seconds_text(Run{}.time_s) +
                       ": no\n"
                       "limit)")
      ->option_text("SECONDS")
      ->transform(weft::cli::number_option(weft::kTimeSeconds));
  run_cmd
      ->add_option("--seed", run.seed,
                   "seed of the strategies that draw random choices\n"
                   "(random, pct, pctvb, pos, pos*, tb, bf's rand, a\n"
                   "portfolio's members); the same seed gives the same\n"
                   "executions (default " +
                       std::to_string(Run{}.seed) + ")")
      ->option_text("N")
      ->transform(weft::cli::number_option(weft::kSeedNumber));
  run_cmd
      ->add_option("--schedule-out", run.schedule_out,
                   "where to write the first bug's schedule (default:\n"
                   "NAME.weft-schedule in the current directory, NAME\n"
                   "being PROGRAM's file name)")
      ->option_text("FILE");
  run_cmd->add_flag("--keep-going", run.keep_going,
                    "do not stop at the first bug: run the whole budget\n"
                    "and report each distinct bug (kind and place)\n"
                    "once, with how many executions hit it");
  run_cmd
      ->add_option("--bound", run.bound,
                   "with dfs or bf, explore only the executions with\n"
                   "at most c preemptions (bf orders them by its\n"
                   "priorities); other strategies refuse it, pb and db\n"
                   "take their bound in the spec (pb:<c>, db:<d>)\n"
                   "(default: no bound)")
      ->option_text("pb:<c>");
  run_cmd->add_flag("--no-minimize", run.no_minimize,
                    "keep the first bug's schedule as the strategy\n"
                    "found it (default: look for the same bug with\n"
                    "fewer preemptions, up to 2000 executions or 20 s;\n"
                    "pb's finds have the fewest already)");
  run_cmd->add_flag("--stats", run.stats,
                    "print the search's work and memory at the end:\n"
                    "executions per second, and the execution tree's\n"
                    "nodes created and most alive at once (GAMBIT\n"
                    "Figure 5; sampling strategies keep no tree)");
}

// How weft run's search is divided and kept: workers, shards, checkpoints.
void add_division_options(CLI::App* run_cmd, Run& run) {
  run_cmd
      ->add_option("--jobs,-j", run.jobs,
                   "run N worker processes (default: WEFT_JOBS, else\n"
                   "the number of cores). Samplers split the seeds, a\n"
                   "portfolio its members; systematic strategies share\n"
                   "one search, passing subtrees to idle workers (no\n"
                   "execution runs twice). The first bug (in an order\n"
                   "that does not depend on timing) stops them and the\n"
                   "result is merged. --jobs 1: one process")
      ->option_text("N")
      ->transform(weft::cli::number_option(weft::kJobsNumber));
  run_cmd
      ->add_option("--shard", run.shard,
                   "run shard I of N of the search (0 <= I < N <=\n"
                   "1048576), with no coordination: together the N\n"
                   "shards run the search once; combine their --json\n"
                   "results with 'weft merge'. Also read from Bazel\n"
                   "(TEST_SHARD_INDEX, TEST_TOTAL_SHARDS), GoogleTest\n"
                   "(GTEST_SHARD_INDEX, GTEST_TOTAL_SHARDS), Slurm\n"
                   "(SLURM_ARRAY_TASK_ID, _COUNT, _MIN) and\n"
                   "Kubernetes (JOB_COMPLETION_INDEX with --shards);\n"
                   "this option wins over them")
      ->option_text("I/N");
  run_cmd
      ->add_option("--shards", run.shards,
                   "the shard count of a Kubernetes Indexed Job, whose\n"
                   "JOB_COMPLETION_INDEX gives the index (or set\n"
                   "WEFT_SHARDS)")
      ->option_text("N")
      ->transform(weft::cli::number_option(weft::kShardCountNumber));
  run_cmd
      ->add_option("--checkpoint", run.checkpoint,
                   "save the search to FILE every --checkpoint-every\n"
                   "seconds and when it ends (Ctrl-C, the budget, a\n"
                   "bug); when FILE exists, check that it is this\n"
                   "search's and resume it, its counts going on from\n"
                   "the saved ones (strategies dfs, pb, db, dpor, bf,\n"
                   "vb, random, pct, pos; one worker)")
      ->option_text("FILE");
  run_cmd
      ->add_option("--checkpoint-every", run.checkpoint_every_s,
                   "with --checkpoint, save every SECONDS (0.001 to\n"
                   "86400; default " +
                       weft::seconds_text(Run{}.checkpoint_every_s) + ")")
      ->option_text("SECONDS")
      ->transform(weft::cli::number_option(weft::kCheckpointEverySeconds));
  run_cmd
      ->add_option("--isolate", run.isolate,
                   "how each execution starts from the program's\n"
                   "start: fork (the default), a child forked per\n"
                   "execution; restore, executions one after another\n"
                   "in one child that puts back its memory,\n"
                   "descriptors and signal handlers between them (a\n"
                   "few times faster; what it cannot put back, such\n"
                   "as a thread left running at exit, is forked, and\n"
                   "said; not with --check-output)")
      ->option_text("fork|restore")
      ->check(weft::cli::one_of({"fork", "restore"}));
}

// weft run: its options (the shared ones in run_options.cpp) and its help.
CLI::App* add_run_command(CLI::App& app, Run& run) {
  CLI::App* run_cmd = app.add_subcommand("run",
                                         "run a program again and again, each time under\n"
                                         "the schedule a search strategy chooses, until a\n"
                                         "bug, the budget or the end of the strategy's space");
  add_search_options(run_cmd, run);
  add_division_options(run_cmd, run);
  add_run_options(run_cmd, run);
  run_cmd->footer(
      "Exit status: 0 no bug found, 1 a bug was found, 2 usage or tool error, 130\n"
      "(SIGINT, Ctrl-C) or 143 (SIGTERM) interrupted: the search ended early and its\n"
      "partial result was reported (a second signal stops at once, with no result). The\n"
      "first bug's schedule is written to NAME.weft-schedule (or --schedule-out), and\n"
      "weft run prints the weft replay command that reruns that execution. A report\n"
      "file or a stdout that cannot be written is said in one line, and is exit status 2\n"
      "unless a bug (1) or a signal gives the status.");
  return run_cmd;
}

// weft replay: its options and its help.
CLI::App* add_replay_command(CLI::App& app, Run& replay) {
  CLI::App* replay_cmd = app.add_subcommand("replay",
                                            "rerun exactly the execution a schedule file\n"
                                            "records, in the foreground, and report it");
  replay_cmd
      ->add_option("schedule", replay.schedule_file,
                   "the schedule file that weft run wrote\n"
                   "(NAME.weft-schedule, or its --schedule-out), or\n"
                   "the schedule itself (the line it holds)")
      ->option_text("FILE|SCHEDULE")
      ->required();
  replay_cmd->add_flag("--gdb", replay.gdb,
                       "run the replay under gdb, at its prompt: type\n"
                       "'run'. gdb follows the execution's process and\n"
                       "stops where weft's runtime records the bug, in the\n"
                       "failing thread ('bt', 'up' to the program's\n"
                       "frames); 'continue' ends the execution and weft\n"
                       "prints its report when gdb quits. No hang timeout\n"
                       "unless --hang-timeout is given (time at gdb's\n"
                       "prompt would count)");
  replay_cmd->add_flag("--gdb-batch", replay.gdb_batch,
                       "like --gdb, without a prompt: gdb runs the\n"
                       "replay, prints the stack where it stops (bt),\n"
                       "continues and quits; then weft's report");
  add_run_options(replay_cmd, replay);
  replay_cmd->footer(
      "A schedule weft run wrote (weft3) records the options that shaped its\n"
      "execution (--races, --preempt-on, --no-preempt-in, --explore-timeouts,\n"
      "--spurious-wakeups, --steps, --real-time, --no-fair, --expect-exit,\n"
      "--check-output), and the replay uses them: give none. One given that differs\n"
      "from the recorded value is refused (exit 2), naming both. An older schedule\n"
      "(weft1, weft2) records none: give the run's.\n"
      "Exit status: 0 the execution ends without a bug, 1 it shows a bug, 2 usage\n"
      "or tool error, including a program that no longer follows the schedule\n"
      "(\"replay diverged\", after a change to the program, say).");
  return replay_cmd;
}

// weft minimize: its options and its help.
CLI::App* add_minimize_command(CLI::App& app, Run& minimize) {
  CLI::App* minimize_cmd = app.add_subcommand("minimize",
                                              "look for the same bug as a schedule file shows\n"
                                              "(same kind and place) with fewer preemptions");
  minimize_cmd
      ->add_option("schedule", minimize.schedule_file,
                   "the schedule file that weft run wrote, or the\n"
                   "schedule itself")
      ->option_text("FILE|SCHEDULE")
      ->required();
  minimize_cmd
      ->add_option("--schedule-out", minimize.schedule_out,
                   "where to write the minimised schedule\n"
                   "(default NAME.weft-schedule)")
      ->option_text("FILE");
  add_run_options(minimize_cmd, minimize);
  minimize_cmd->footer(
      "Runs the schedule once, simplifies it (merges or swaps its threads' blocks of\n"
      "steps, drops switches) while the same bug shows with fewer preemptions, then\n"
      "runs iterative preemption bounding below that count until the same bug shows\n"
      "again (up to 2000 executions or 20 s in all).\n"
      "Exit status: 1 the bug (minimised or not), 2 usage or tool error, including a\n"
      "schedule that shows no bug.");
  return minimize_cmd;
}

// weft merge: its options and its help.
void add_merge_command(CLI::App& app, Merge& merge) {
  CLI::App* merge_cmd = app.add_subcommand("merge",
                                           "combine the --json results of the shards of one\n"
                                           "search (weft run --shard I/N) into its result");
  merge_cmd->add_option("results", merge.files, "the shards' result files (weft run --json)")
      ->option_text("RESULT...")
      ->required();
  merge_cmd
      ->add_option("--json", merge.json,
                   "write the merged result as JSON to FILE ('-':\n"
                   "stdout, instead of the text summary)")
      ->option_text("FILE");
  merge_cmd
      ->add_option("--schedule-out", merge.schedule_out,
                   "where to write the first bug's schedule (default\n"
                   "NAME.weft-schedule)")
      ->option_text("FILE");
  merge_cmd->add_flag("--quiet,-q", merge.quiet, "print nothing when no bug was found");
  merge_cmd->footer(
      "The shards must come from one search: the same program, arguments,\n"
      "strategy, seed, shard count and weft version (else exit 2, naming the\n"
      "mismatch). A missing shard is named, and the merged coverage makes no claim.\n"
      "Exit status: 0 no bug, 1 a bug in some shard, 2 usage or tool error.");
}

// weft strategies, and the help of weft itself: exit statuses, files, environment.
void add_strategies_and_help(CLI::App& app) {
  CLI::App* strategies_cmd = app.add_subcommand(
      "strategies", "list the search strategies, NAME[:ARGS] and what\neach does");
  strategies_cmd->footer(
      "Give one to weft run --strategy. docs/choosing-a-strategy.md says which to use\n"
      "when.");

  app.footer(
      "Run 'weft run --help', 'weft replay --help', 'weft minimize --help',\n"
      "'weft merge --help' and 'weft strategies' for more.\n"
      "\n"
      "Exit status:\n"
      "  0  no bug found: the budget was spent, or the strategy explored its whole\n"
      "     space\n"
      "  1  a bug was found (weft run), or the replayed execution shows one (weft\n"
      "     replay)\n"
      "  2  usage or tool error: a bad option, a program that cannot be run or that\n"
      "     starts child processes, a replay that diverged, a report (a file or\n"
      "     stdout) that could not be written when no bug was found\n"
      "  130, 143  interrupted by SIGINT (Ctrl-C) or SIGTERM (128 + the signal): the\n"
      "            search stopped early; its partial result is reported, marked\n"
      "            interrupted, and --json written. A second signal stops at once,\n"
      "            with no result. Either way nothing of the run is left: no\n"
      "            process, no temporary file\n"
      "\n"
      "Files:\n"
      "  NAME.weft-schedule  weft run writes the first bug's schedule here, in the\n"
      "                      current directory (NAME: the program's file name;\n"
      "                      --schedule-out FILE elsewhere)\n"
      "  FILE (--checkpoint)  the saved search, resumed by the same command; written\n"
      "                      to FILE.tmp and renamed\n"
      "\n"
      "Environment:\n"
      "  PATH               finds PROGRAM when its name has no '/'\n"
      "  TMPDIR             where a run keeps its temporary directory (default /tmp)\n"
      "  LD_PRELOAD         kept, after weft's runtime (libweft.so), which weft run\n"
      "                     and weft replay preload into the program\n"
      "  LD_BIND_NOW        set to 1 for the program unless it is set already\n"
      "  WEFT_CC, WEFT_CXX  the compiler weft-cc and weft-c++ run (default cc, c++,\n"
      "                     found in PATH past the wrappers themselves)\n"
      "  WEFT_CC_ACTIVE     set by weft-cc and weft-c++ for the compiler they run: a\n"
      "                     compiler that calls a wrapper back (a build's own cc\n"
      "                     first in PATH) gets the next compiler in PATH\n"
      "  WEFT_FIBERS        0: no fibers, the kernel switches the program's threads;\n"
      "                     1 (default): fibers; arch_prctl: fibers that set their\n"
      "                     thread pointer by system call\n"
      "  weft run and weft replay hand their settings to the program in a file that\n"
      "  WEFT_RUN_OPTIONS names. WEFT_STRATEGY, WEFT_EXECUTIONS, WEFT_TIME and\n"
      "  WEFT_SEED set by you are read by WEFT_TEST and weft::apply_environment in\n"
      "  test binaries, not by weft run; so are WEFT_CHECKPOINT (a directory: each\n"
      "  test's search is saved there and resumed) and WEFT_CHECKPOINT_EVERY.\n"
      "\n"
      "Documentation: docs/tutorial.md, docs/choosing-a-strategy.md and\n"
      "docs/troubleshooting.md in weft's source, installed under share/doc/weft.");
}

}  // namespace

// The command line's command, run; its exit status. What it prints on stdout is in `out`.
int weft_main(int argc, char** argv, weft::cli::StdoutBuffer& out) {
  // A signal from here on ends a run in order (one that comes before the run starts
  // interrupts it as soon as it has).
  catch_stop_signals(false);
  CLI::App app{"weft: systematic concurrency testing for C and C++"};
  app.require_subcommand(1);
  Run run, replay, minimize;

  CLI::App* run_cmd = add_run_command(app, run);
  CLI::App* replay_cmd = add_replay_command(app, replay);
  CLI::App* minimize_cmd = add_minimize_command(app, minimize);
  Merge merge;
  add_merge_command(app, merge);
  add_strategies_and_help(app);

  std::vector<std::string> args(argv + 1, argv + argc);
  if (std::string e = weft::cli::command_problem(app, args); !e.empty()) return fail(e);
  CLI::App* program_cmd = nullptr;
  for (CLI::App* c : {run_cmd, replay_cmd, minimize_cmd})
    if (!args.empty() && args[0] == c->get_name()) program_cmd = c;
  const std::vector<std::string> after_dashes =
      program_cmd != nullptr ? weft::cli::split_at_dashes(args) : std::vector<std::string>{};
  std::vector<char*> parsed{argv[0]};
  for (std::string& a : args) parsed.push_back(a.data());
  try {
    app.parse(static_cast<int>(parsed.size()), parsed.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError&) {
    return fail(weft::cli::unexpected_argument(app));
  } catch (const CLI::ParseError& e) {
    return fail(weft::cli::parse_problem(app, e.what()));
  }
  if (!app.got_subcommand("run") && !app.got_subcommand("replay") &&
      !app.got_subcommand("minimize")) {  // nothing to end in order: a signal ends it
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (const int sig = stop_signal(); sig != 0) raise(sig);
  }
  if (program_cmd != nullptr) {
    Run& r = program_cmd == run_cmd ? run : program_cmd == replay_cmd ? replay : minimize;
    for (const std::string& name : weft::execution_option_names())
      if (program_cmd->count("--" + name) > 0) r.given.push_back(name);
    if (std::string e = weft::cli::take_program(*program_cmd, after_dashes, &r.command); !e.empty())
      return fail(e);
    if (std::string e = weft::cli::environment_problem(); !e.empty()) return fail(e);
    if (r.json == "-") out.holds("the JSON result");
  }
  if (app.got_subcommand("strategies")) {
    // Each description wrapped within the help's width, hanging under the first.
    const std::size_t width = std::min(weft::cli::terminal_width(), weft::cli::kHelpWidth);
    for (const weft::StrategyInfo& s : weft::strategy_list()) {
      const std::string usage(s.usage);
      const std::string line = usage + std::string(usage.size() < 14 ? 14 - usage.size() : 0, ' ') +
                               " " + std::string(s.description);
      std::cout << weft::wrap_line(line, width, 15) << "\n";
    }
    return kOk;
  }
  if (merge.json == "-") out.holds("the merged JSON result");
  if (app.got_subcommand("merge")) return merge_command(merge);
  if (app.got_subcommand("run")) return launch(run, Mode::kRun);
  if (app.got_subcommand("minimize")) return launch(minimize, Mode::kMinimize);
  // Under gdb, time at its prompt would look like a hang to the fork server's watchdog.
  if ((replay.gdb || replay.gdb_batch) && replay_cmd->count("--hang-timeout") == 0)
    replay.hang_timeout_s = 86400;
  return launch(replay, Mode::kReplay);
}

int main(int argc, char** argv) {
  weft::cli::StdoutBuffer out;  // before anything is printed or opened
  weft::cli::catch_broken_pipes();
  const int code = weft_main(argc, argv, out);
  // The report last, after every file: a lost one is said, and is an error unless a bug
  // or an interruption gives the exit status (WriteErrors).
  if (std::string e = out.flush(); !e.empty()) return WriteErrors{{e}}.report(code);
  return code;
}
