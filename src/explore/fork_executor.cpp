#include "explore/fork_executor.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include "core/file_text.hpp"
#include "detect/hang_watch.hpp"
#include "explore/kept_strategy.hpp"
#include "explore/runner.hpp"
#include "explore/stop_request.hpp"
#include "runtime/access_policy.hpp"
#include "runtime/controller.hpp"
#include "runtime/fiber.hpp"
#include "runtime/instrumented_code.hpp"
#include "runtime/internal_heap.hpp"
#include "runtime/virtual_ids.hpp"
#include "sys/os.hpp"

namespace weft::explorer {
namespace {

ExplorationState* g_server = nullptr;  // the child's, for what runs outside any call: atexit

[[noreturn]] void log_full() {
  const std::string mib = std::to_string(g_server->log->capacity() >> 20);
  g_server->sink->on_tool_error("the scheduling-point log is full (" + mib +
                                " MiB, all the address space there was for it: many threads "
                                "enabled at each step); lower --steps, or raise the "
                                "address-space limit (ulimit -v)");
}

void execution_exited(int status, void*) {
  // Last of the exit handlers: the program ran to its end. Threads still running (a
  // detached one, say) go on until the process is torn down, which is one more step of
  // the exiting thread: the strategy chooses how far they get first.
  rt::Controller* c = rt::Controller::active();
  if (rt::ThreadState* self = rt::controlled_thread(); c != nullptr && self != nullptr) {
    rt::RuntimeScope scope(self);
    // Where the program called exit() (or returned from main): the first frame of its code.
    const auto pc = rt::program_pc(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
    c->schedule(self, make_op(OpKind::ProcessExit, 0, pc));
    c->note_unfinished(self->id);
  }
  g_server->region->header().finished.store(1, std::memory_order_release);
  runner_execution_ended(*g_server, status);  // a runner's next execution, if it can
}

std::string read_fd(int fd, std::size_t limit = 1 << 20) {
  std::string out;
  if (fd >= 0) read_fd_text(fd, &out, 0, limit);
  return out;
}

}  // namespace

void become_execution(ExplorationState& s) {
  g_server = &s;
  if (!s.config.replay) {
    dup2(s.output_fd, STDOUT_FILENO);
    dup2(s.output_fd, STDERR_FILENO);
  } else if (s.config.stdout_to_stderr) {
    dup2(STDERR_FILENO, STDOUT_FILENO);
  }
  // A replay is for a debugger: each thread on its own kernel thread, as gdb shows them.
  if (s.config.replay) rt::fiber::disable();
  if (s.stdin_fd >= 0) {
    // The server's read-only description of the input, rewound: no other process reads it
    // while this execution runs.
    dup2(s.stdin_fd, STDIN_FILENO);
    lseek(STDIN_FILENO, 0, SEEK_SET);
  }
  if (s.output_check) s.output_check->in_child();
  if (s.output_fd >= 0) close(s.output_fd);
  if (s.stdin_fd >= 0) close(s.stdin_fd);
  SharedHeader& h = s.region->header();
  h.instrumented = rt::g_instrumented;
  rt::g_instrumented_out = &h.instrumented;
  rt::VirtualIds::enabled = true;
  install_child_detectors(h, s.config.hang_timeout_s, /*supervised=*/true);
  static RecordingStrategy recording(s.strategy.get(), s.log.get(), &log_full);
  rt::ControllerConfig cfg = controller_config(s);
  cfg.strategy = &recording;
  cfg.cut_long_executions = true;              // a process per execution: one can end alone
  cfg.holder_out = &h.holder;                  // for the server's hang watch
  auto* controller = new rt::Controller(cfg);  // lives as long as the process
  on_exit(&execution_exited, nullptr);
  controller->adopt_main_thread();
  rt::InternalHeap::set_weft_thread(false);  // the program's blocks from here
}

std::string execution_output(const ExplorationState& s) {
  std::string out;
  if (s.output_check && s.output_check->what() == "-") out = s.output_check->take();
  return out + read_fd(s.output_fd);
}

bool execution_failed(const SharedHeader& h, int status, const ExpectedExit& expected) {
  return h.bug.written() || WIFSIGNALED(status) ||
         (WIFEXITED(status) && !expected.accepts(WEXITSTATUS(status)));
}

BugRecord read_failure(SharedRegion& region, int status, std::uint64_t fingerprint,
                       const std::string& strategy, std::uint64_t seed,
                       const std::vector<std::string>& points, const ExpectedExit& expected) {
  BugRecord b = read_bug(region, status, fingerprint, strategy, seed, points);
  if (!region.header().bug.written() && WIFEXITED(status)) {
    b.kind = BugKind::kExitCode;
    b.message = "the program exited with status " + std::to_string(WEXITSTATUS(status));
    if (!expected.is_default()) b.message += ", not the expected " + expected.text();
  }
  return b;
}

int wait_child(pid_t pid, SharedHeader& h, double hang_timeout_s, std::uint64_t deadline_ns,
               bool* stopped, std::uint64_t runner_number, bool* done) {
  int status = 0;
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  StopRequest::add_to(&chld);  // weft's request to stop wakes the wait too
  detect::HangWatch watch(hang_timeout_s);
  for (;;) {
    if (runner_number != 0 && h.runner_done.load(std::memory_order_acquire) == runner_number) {
      *done = true;
      return h.runner_status.load(std::memory_order_relaxed);
    }
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return status;
    const std::uint64_t now = os::monotonic_ns();
    if ((deadline_ns != 0 && now >= deadline_ns) || StopRequest::made()) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      if (stopped != nullptr) *stopped = true;
      return status;
    }
    if (StopRequest::weft_gone()) {  // under gdb: nobody is left to read a result
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      _exit(0);
    }
    const std::uint64_t holder = h.holder.load(std::memory_order_relaxed);
    const auto tid = static_cast<pid_t>(holder & 0xffffffffu);
    if (watch.hung(now, h.steps.load(std::memory_order_relaxed), pid, tid)) {
      watch.record(pid, tid, static_cast<ThreadId>(holder >> 32), &h.sampled, &h.bug);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return status;
    }
    std::uint64_t wait_ns = detect::HangWatch::kLookEveryNs;
    if (deadline_ns != 0) wait_ns = std::min(wait_ns, deadline_ns - now);
    struct timespec ts {
      static_cast<time_t>(wait_ns / 1000000000), static_cast<long>(wait_ns % 1000000000)
    };
    StopRequest::note(sigtimedwait(&chld, nullptr, &ts));
  }
}

void prepare_execution(ExplorationState& s, std::uint64_t index) {
  SharedHeader& h = s.region->header();
  new (&h.bug) detect::BugSlot();
  h.nunfinished = 0;
  h.finished.store(0);
  h.cut.store(0);
  h.steps.store(0);
  h.decisions.store(0);
  // Before the fork: the child publishes who holds the baton from its first step, maybe
  // before the server runs again (a reset after fork lost it, and a hang had no thread).
  h.holder.store(0);
  h.error[0] = '\0';
  h.error_pc = 0;
  h.executions.store(index + 1);
  s.log->clear();
  if (s.output_fd >= 0) {
    ftruncate(s.output_fd, 0);
    lseek(s.output_fd, 0, SEEK_SET);
  }
  if (s.output_check) s.output_check->before_execution();
}

pid_t fork_execution(ExplorationState& s, std::uint64_t index) {
  prepare_execution(s, index);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    // Nothing of a run outlives it: the execution dies with the server (which dies with
    // weft). The server's main thread forks, and lives as long as the server.
    if (!os::die_with_parent(s.pid)) _exit(0);
    StopRequest::close_in_child();
  }
  return pid;
}

namespace {

// The strategy a runner can keep in step with the server's: one made in the kept arena.
const KeptStrategy* kept_strategy(const ExplorationState& s) {
  return dynamic_cast<const KeptStrategy*>(s.strategy.get());
}

}  // namespace

ForkExecutor::~ForkExecutor() { end_runner(); }

// Whether the next execution may run in a runner: --isolate restore, a strategy in the
// kept arena, and neither --check-output's reference output nor a replay (for a debugger).
bool ForkExecutor::may_run_restored() const {
  return restoring_ && kept_strategy(s_) != nullptr && !s_.config.replay && !s_.output_check;
}

// Whether the runner waiting has the server's strategy as it is: the same one, changed by
// its executions only (not by a team's exchange of work, say).
bool ForkExecutor::runner_in_step() const {
  const KeptStrategy* k = kept_strategy(s_);
  return k != nullptr && k == runner_strategy_ && k->generation() == runner_generation_;
}

void ForkExecutor::end_runner() {
  if (runner_ <= 0) return;
  kill(runner_, SIGKILL);
  waitpid(runner_, nullptr, 0);
  runner_ = -1;
}

// Execution `number` in the runner waiting for it. *ran false: the runner had ended before
// it began the execution (the caller forks it instead). The runner knows its executions
// by a sequence of their own: execution numbers repeat (a sharded search's probes).
Executed ForkExecutor::run_in_runner(std::uint64_t number, std::uint64_t deadline_ns, bool* ran) {
  SharedHeader& h = s_.region->header();
  Executed e;
  prepare_execution(s_, number - 1);
  const std::uint64_t seq = ++sequence_;
  h.runner_next.store(seq, std::memory_order_release);
  h.runner_go.fetch_add(1, std::memory_order_release);
  os::futex_wake_shared(reinterpret_cast<const std::uint32_t*>(&h.runner_go), 1);
  bool stopped = false, done = false;
  e.status = wait_child(runner_, h, s_.config.hang_timeout_s, deadline_ns, &stopped, seq, &done);
  *ran = done || h.runner_started.load(std::memory_order_acquire) == seq;
  if (stopped) e.kind = Executed::Kind::kStopped;
  if (done) {
    ++restored_;
  } else {
    runner_ = -1;  // it ended (or was killed): its status is the execution's, if it began
    if (h.runner_refused[0] != '\0') refused_ = h.runner_refused;
  }
  return e;
}

Executed ForkExecutor::run_once(std::uint64_t number, std::uint64_t deadline_ns) {
  const bool restored = may_run_restored();
  if (runner_ > 0 && (!restored || !runner_in_step())) end_runner();
  if (runner_ > 0) {
    bool ran = false;
    Executed e = run_in_runner(number, deadline_ns, &ran);
    if (ran) return e;
  }
  Executed e;
  SharedHeader& h = s_.region->header();
  h.runner_refused[0] = '\0';
  const std::uint64_t seq = ++sequence_;
  const pid_t pid = fork_execution(s_, number - 1);
  if (pid < 0) {
    e.kind = Executed::Kind::kFailed;
    e.error = std::string("fork failed: ") + std::strerror(errno);
    return e;
  }
  if (pid == 0) {
    if (in_child_) in_child_();
    sigprocmask(SIG_SETMASK, &program_mask_, nullptr);
    if (restored && !become_runner(s_, seq)) {
      // One execution's child, as any (the reason is in the shared header).
    }
    become_execution(s_);
    e.kind = Executed::Kind::kChild;  // into the program
    return e;
  }
  bool stopped = false, done = false;
  e.status = wait_child(pid, h, s_.config.hang_timeout_s, deadline_ns, &stopped, restored ? seq : 0,
                        &done);
  if (stopped) e.kind = Executed::Kind::kStopped;
  if (done) {
    runner_ = pid;  // restored, waiting for the next execution
    runner_strategy_ = kept_strategy(s_);
    runner_generation_ = runner_strategy_->generation();
    ++runners_;
    refusals_ = 0;
  } else if (restored && h.runner_refused[0] != '\0') {
    refused_ = h.runner_refused;
    // A program whose executions this many times in a row cannot be put back runs in
    // forked children from here on (with fibers, which a runner goes without).
    if (++refusals_ == kMostRefusals) {
      restoring_ = false;
      fell_back_at_ = number;
    }
  }
  return e;
}

Executed ForkExecutor::run(std::uint64_t number, std::uint64_t deadline_ns) {
  const SharedHeader& h = s_.region->header();
  Executed e;
  for (int attempt = 0; attempt < 2; ++attempt) {
    e = run_once(number, deadline_ns);
    if (e.kind != Executed::Kind::kRan) return e;
    if (!h.bug.written() || h.bug.kind != static_cast<int>(BugKind::kHang)) break;
    if (attempt == 0)
      ++unconfirmed_hangs_;
    else
      --unconfirmed_hangs_;  // it came back: a hang
  }
  return e;
}

Trace ForkExecutor::trace() { return region_trace(*s_.region, &unfinished_); }

std::string ForkExecutor::feed(Strategy& strategy) {
  return s_.log->feed(strategy, s_.region->decisions(), s_.region->header().decisions.load());
}

}  // namespace weft::explorer
