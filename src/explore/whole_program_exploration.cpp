#include "explore/whole_program_exploration.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "explore/bug_identity.hpp"
#include "explore/exploration.hpp"
#include "explore/fork_executor.hpp"
#include "explore/fork_minimizer.hpp"
#include "explore/result_files.hpp"
#include "explore/stop_request.hpp"
#include "report/text_report.hpp"
#include "runtime/access_policy.hpp"
#include "runtime/fiber.hpp"
#include "runtime/instrumented_code.hpp"
#include "strategy/dfs.hpp"
#include "sys/os.hpp"

namespace weft::explorer {
namespace {

std::vector<std::string> own_args() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  std::string arg;
  while (std::getline(in, arg, '\0')) args.push_back(arg);
  return args;
}

// Every schedule of the run, made to name the options its execution ran under: those weft
// run gave, but races reported for what a race leads to (the search went on past races).
void record_options(RunRecord& run, const ExplorationConfig& cfg) {
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

// --no-preempt-in: the code its patterns name, symbolized once, here (every execution's
// child inherits the ranges); a pattern that names nothing is a warning.
void find_no_preempt_code(ExplorationState& s, RunRecord& run) {
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

// Whether the execution created a thread; one created but never run (detached, main
// returned first) counts.
bool created_a_thread(const Trace& trace) {
  for (const Event& e : trace.events())
    if (e.thread != 0 || e.op.kind == OpKind::ThreadCreate) return true;
  return false;
}

// weft run's search of a whole program (weft run, replay, minimize), each execution a
// child of this fork server: the program's set-up, a reference output (--check-output),
// the first bug minimised, the run's files written.
class WholeProgramExploration final : public Exploration {
 public:
  explicit WholeProgramExploration(ExplorationState& s)
      : Exploration(s, fork_, s.config.replay || s.config.minimize_only),
        fork_(s, [this] { team_->disown(); }) {
    fork_.set_restoring(s.config.isolate == "restore");
  }

 private:
  void set_up() override {
    set_up_program();
    set_up_memory();
    if (replaying_) read_schedule();
  }

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
    s_.region_owned = std::make_unique<SharedRegion>(cfg_.steps + 2, max_decisions_for(cfg_.steps));
    s_.region = s_.region_owned.get();
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

  // The schedule to replay (replay, or minimize's first execution).
  void read_schedule() {
    std::string error;
    if (!decode_schedule(cfg_.schedule, &replay_, &error, max_decisions_for(cfg_.steps)))
      fail(error);
    if (replay_.fingerprint != fingerprint_)
      fail("the schedule was recorded for another program (this is " +
           program_.substr(program_.rfind('/') + 1) + ")");
  }

  // The process every execution is forked from: its code ranges, input, output, CPU and
  // signal mask.
  void set_up_process() override {
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
    sigset_t chld, program_mask;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &program_mask);
    StopRequest::clear_from(&program_mask);  // the program's own mask, for the executions
    fork_.set_program_mask(program_mask);
  }

  // --check-output: the serial execution's output first, the reference every execution's
  // is compared with (in a replay too, so that the replay shows the same difference).
  // Serial: dfs's first execution, with no racy points (a replay's schedule has some).
  bool before_search() override {
    if (!s_.output_check) return false;
    std::unique_ptr<Strategy> searching = std::move(s_.strategy);
    rt::RacyPoints racy = std::move(s_.racy);
    s_.racy = rt::RacyPoints();
    s_.strategy = std::make_unique<DfsStrategy>();
    s_.strategy->next_execution();
    SharedHeader& h = header();
    const Executed e = fork_.run_once(1, 0);
    if (e.kind == Executed::Kind::kChild) return true;
    if (StopRequest::made()) {
      s_.output_check.reset();  // stopped unfinished: the search below ends at once
    } else if (e.kind != Executed::Kind::kRan || h.error[0] != '\0' ||
               execution_failed(h, e.status, cfg_.expected_exit)) {
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

  // After the first execution: the options that need an instrumented program have one,
  // and a program that created no thread has nothing to explore (note_).
  bool first_execution_fits(const Trace& trace, bool bug) override {
    const char* wrappers = "weft's compiler wrappers (weft-cc, weft-c++";
    if (!replaying_ && !run_.instrumented && s_.strategy->needs_memory_accesses()) {
      run_.error = "strategy " + cfg_.strategy +
                   " places its preemptions at memory accesses and needs the program built "
                   "with " +
                   wrappers + "); this one was not, so weft sees only its synchronisation";
      return false;
    }
    if (cfg_.races_explicit && cfg_.races != "off" && !run_.instrumented) {
      run_.error = "--races=" + cfg_.races + " needs the program built with " + wrappers +
                   ": they instrument memory accesses); this one was not, so weft sees only "
                   "its synchronisation";
      return false;
    }
    if (!bug && !replaying_ && !created_a_thread(trace))
      note_ = "the program created no thread: there is nothing to explore";
    return true;
  }

  bool after_search() override {
    run_.restored_executions = fork_.restored_executions();
    if (const std::uint64_t at = fork_.fell_back_at(); at != 0)
      run_.warnings.push_back("--isolate restore: from execution " + std::to_string(at) +
                              " on, each execution ran in a forked child: its process could "
                              "not be put back (" +
                              fork_.refused() + ")");
    if (minimise_first()) return true;
    if (const std::uint64_t hangs = fork_.unconfirmed_hangs(); hangs > 0)
      run_.warnings.push_back(
          std::to_string(hangs) + (hangs == 1 ? " execution" : " executions") +
          " stalled (no scheduling point for --hang-timeout) and, run again, did not: not "
          "reported as a hang (a busy machine starved it, or the program waits on something "
          "outside it)");
    return false;
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
    MinimiseContext context{s_, fork_, fingerprint_, race_symbolizer_, deadline_ns()};
    if (worth_minimising(run_.bugs[0]) && minimise(context, run_.bugs[0], table_.key(0), &output_))
      return true;
    // What a race led to, as it was found: races reported, not failing.
    if (!run_.bugs[0].leads_to.empty() && worth_minimising(run_.bugs[0].leads_to[0])) {
      BugRecord& led = run_.bugs[0].leads_to[0];
      cfg_.races = "report";
      if (minimise(context, led, bug_identity(race_symbolizer_, led), nullptr)) return true;
    }
    return false;
  }

  // Writes the run's files for weft run (result_files.hpp) and ends the server.
  [[noreturn]] void finish(const std::string& note) override {
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

  ForkExecutor fork_;
  std::vector<std::string> args_;
  std::string program_;
};

}  // namespace

void serve(ExplorationState& s) {
  // Never destroyed: run() returns only in an execution's child, which goes on into the
  // program and must not tear down the server's search (its symbolizer's mappings, its
  // runner, its team) on the way.
  auto& exploration = *new WholeProgramExploration(s);
  exploration.run();
}

}  // namespace weft::explorer
