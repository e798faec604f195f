#pragma once
// The fork executor: one execution of a whole program, run in a child of the fork
// server. The child keeps the server's memory (copy-on-write), becomes the execution and
// returns into the program under a Controller; the server waits for it, watching for a
// hang, and reads what it left in shared memory. The exploration (exploration.hpp) decides
// which executions run.
#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/expected_exit.hpp"
#include "core/run_record.hpp"
#include "core/strategy.hpp"
#include "detect/race_detector.hpp"
#include "explore/execution_child.hpp"
#include "explore/output_check.hpp"
#include "explore/point_log.hpp"
#include "explore/exploration_config.hpp"
#include "explore/exploration_state.hpp"
#include "explore/executor.hpp"
#include "explore/shared_region.hpp"
#include "runtime/code_ranges.hpp"
#include "runtime/racy_points.hpp"

namespace weft::explorer {

class ForkExecutor final : public Executor {
 public:
  // `in_child`: what an execution's child does first, before it becomes the execution
  // (lets go of what is the server's alone).
  ForkExecutor(ExplorationState& s, std::function<void()> in_child)
      : s_(s), in_child_(std::move(in_child)) {}
  // The program's own signal mask, which each child takes back.
  void set_program_mask(const sigset_t& mask) { program_mask_ = mask; }

  // A hang is confirmed by running the same execution again before it is reported: the
  // server's state is unchanged, so the child makes the same decisions. A stall that a
  // busy machine's starvation made does not come back; the rerun is then the execution.
  Executed run(std::uint64_t number, std::uint64_t deadline_ns) override;
  // One child, its hang reported as it is (a trial of minimisation, the reference output).
  Executed run_once(std::uint64_t number, std::uint64_t deadline_ns);
  Trace trace() override;
  std::string feed(Strategy& strategy) override;
  bool survives_bugs() const override { return true; }
  // Stalls that, run again, did not come back: not reported as hangs.
  std::uint64_t unconfirmed_hangs() const { return unconfirmed_hangs_; }

  // --isolate restore (#30): executions run one after another in one child, a *runner*,
  // which restores a snapshot of itself between them (sys/process_snapshot.hpp) instead
  // of the server forking a child for each. The runner keeps its copy of the strategy in
  // the kept arena (kept_strategy.hpp), calling it as the server does; the server still
  // feeds every choice to its own copy, which checks they agree. An execution that ends
  // otherwise than by exit with the expected status and no bug, or whose restore is
  // refused, ends the runner as a child ends: the next execution is forked.
  void set_restoring(bool on) { restoring_ = on; }
  ~ForkExecutor() override;
  // Executions run by a runner after its first, and runners forked.
  std::uint64_t restored_executions() const { return restored_; }
  std::uint64_t runners() const { return runners_; }
  // Why the runner's restore was last refused ("" when never).
  const std::string& refused() const { return refused_; }
  // The execution from which on every one was forked, its restores refused kMostRefusals
  // times in a row (0: none).
  static constexpr std::uint64_t kMostRefusals = 8;
  std::uint64_t fell_back_at() const { return fell_back_at_; }

 private:
  bool may_run_restored() const;
  bool runner_in_step() const;
  void end_runner();
  Executed run_in_runner(std::uint64_t number, std::uint64_t deadline_ns, bool* ran);

  ExplorationState& s_;
  std::function<void()> in_child_;
  sigset_t program_mask_{};
  std::uint64_t unconfirmed_hangs_ = 0;
  std::vector<Event> unfinished_;  // the trace's unfinished steps
  bool restoring_ = false;
  pid_t runner_ = -1;  // waiting for its next execution
  const class KeptStrategy* runner_strategy_ = nullptr;
  std::uint64_t runner_generation_ = 0;
  std::uint64_t sequence_ = 0;  // the runner's executions, numbered (runner.hpp)
  std::uint64_t restored_ = 0, runners_ = 0, refusals_ = 0, fell_back_at_ = 0;
  std::string refused_;
};

// A fresh slate in shared memory for execution `index` (0-based, in the whole search).
void prepare_execution(ExplorationState& s, std::uint64_t index);
// prepare_execution, then its child: the pid in the server, 0 in the child, -1 when fork
// failed.
pid_t fork_execution(ExplorationState& s, std::uint64_t index);
// In the child: become the execution and return into the program.
void become_execution(ExplorationState& s);
// In the child, before become_execution: become a runner for execution `number` and the
// ones the server sends after it (each return from here is one). False when it cannot
// (runner_refused says why): the child is one execution's, as any.
bool become_runner(ExplorationState& s, std::uint64_t number);
// Waits for execution `pid`, watching its progress (detect/hang_watch.hpp): a thread that
// takes no step for hang_timeout_s is a hang (the execution is killed and reported). At
// `deadline_ns` (monotonic; 0: none), the end of the run's time budget, the execution is
// killed unfinished and *stopped set. The wait status.
// `runner_number`: the execution a runner runs; when it says it has run it (and restored
// itself), *done is set and its exit status returned.
int wait_child(pid_t pid, SharedHeader& h, double hang_timeout_s, std::uint64_t deadline_ns = 0,
               bool* stopped = nullptr, std::uint64_t runner_number = 0, bool* done = nullptr);
// What the execution just waited for printed: its stdout (when --check-output keeps it
// apart), then the rest.
std::string execution_output(const ExplorationState& s);
// Whether the execution just waited for failed: a bug it reported, a signal, or an exit
// status the program does not return by design (--expect-exit, default 0).
bool execution_failed(const SharedHeader& h, int status, const ExpectedExit& expected);
// The failure of the execution just waited for; an exit status nothing explained is the
// bug itself.
BugRecord read_failure(SharedRegion& region, int status, std::uint64_t fingerprint,
                       const std::string& strategy, std::uint64_t seed,
                       const std::vector<std::string>& points, const ExpectedExit& expected);

}  // namespace weft::explorer
