#include "explore/runner.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "detect/bug_slot.hpp"
#include "explore/execution_child.hpp"
#include "runtime/controller.hpp"
#include "runtime/fiber.hpp"
#include "runtime/internal_heap.hpp"
#include "sys/os.hpp"
#include "sys/process_snapshot.hpp"

namespace weft::explorer {
namespace {

// Beyond this much memory to copy back, a fork is as cheap: the runner declines.
constexpr std::size_t kMostRestoredBytes = std::size_t{32} << 20;

os::ProcessSnapshot* g_snapshot = nullptr;  // the runner's, taken once
bool g_runner = false;                      // this process is a runner
std::uint64_t g_number = 0;                 // its execution's sequence (set after each resume)

void refuse(SharedHeader& h, const std::string& why) {
  detect::copy_text(h.runner_refused, sizeof h.runner_refused, why.c_str());
}

// Once the restore cannot fail: the race detector's shadow emptied (the snapshot leaves
// it out), then the server may take the execution and send the next.
void committed(void* arg) {
  auto& s = *static_cast<ExplorationState*>(arg);
  if (s.races != nullptr) s.races->clear_shadow();
  SharedHeader& h = s.region->header();
  h.runner_done.store(g_number, std::memory_order_release);
  kill(getppid(), SIGCHLD);  // wakes the server's wait
}

// Between executions, once restored: the next execution's number (the server writes it).
std::uint64_t wait_for_next(SharedHeader& h) {
  const std::uint64_t done = h.runner_done.load(std::memory_order_acquire);
  for (;;) {
    const std::uint32_t go = h.runner_go.load(std::memory_order_acquire);
    const std::uint64_t next = h.runner_next.load(std::memory_order_acquire);
    if (next > done) return next;
    os::futex_wait_shared(reinterpret_cast<const std::uint32_t*>(&h.runner_go), go);
  }
}

}  // namespace

bool become_runner(ExplorationState& s, std::uint64_t sequence) {
  SharedHeader& h = s.region->header();
  if (!rt::InternalHeap::kept(s.strategy.get())) {
    refuse(h, "the strategy is not in the kept arena");
    return false;
  }
  if (g_snapshot == nullptr) g_snapshot = new os::ProcessSnapshot;
  os::ProcessSnapshot& snap = *g_snapshot;
  std::uintptr_t unused_begin = 0, unused_end = 0;
  rt::InternalHeap::unused(&unused_begin, &unused_end);
  bool excluded = snap.exclude(reinterpret_cast<void*>(rt::InternalHeap::kept_begin()),
                               rt::InternalHeap::kept_size()) &&
                  snap.exclude(reinterpret_cast<void*>(unused_begin), unused_end - unused_begin);
  if (s.races != nullptr)
    for (const auto& r : s.races->shadow_ranges()) excluded &= snap.exclude(r.begin, r.bytes);
  if (!excluded) {
    refuse(h, "too many ranges to leave out of the snapshot");
    return false;
  }
  // Set before the snapshot, so that every restore puts them back so. Each controlled
  // thread on a kernel thread of its own: the main thread ends each execution on the
  // thread that took the snapshot.
  rt::InternalHeap::set_reused();
  rt::fiber::disable();
  g_runner = true;
  if (getcontext(snap.context()) != 0) {
    g_runner = false;
    refuse(h, "getcontext failed");
    return false;
  }
  if (!snap.resumed()) {
    std::string why = snap.take();
    if (why.empty() && snap.saved_bytes() > kMostRestoredBytes)
      why = "the process's writable memory (" + std::to_string(snap.saved_bytes() >> 20) +
            " MiB) costs more to copy back than a fork";
    if (!why.empty()) {
      g_runner = false;
      refuse(h, why);
      return false;
    }
    g_number = sequence;
    return true;
  }
  // Restored: the next execution, prepared as the server prepared its copy.
  g_number = wait_for_next(h);
  if (!s.strategy->next_execution()) {
    refuse(h, "the runner's strategy ended before the server's");
    _exit(0);  // before runner_started: the server forks the execution instead
  }
  h.runner_started.store(g_number, std::memory_order_release);
  return true;
}

void runner_execution_ended(ExplorationState& s, int status) {
  if (!g_runner) return;
  SharedHeader& h = s.region->header();
  const bool clean = !h.bug.written() && h.cut.load() == 0 && h.error[0] == '\0' &&
                     s.config.expected_exit.accepts(status);
  if (!clean) return;
  // The snapshot's thread only (the main thread may have left first, with pthread_exit):
  // the others are carriers, which end_carriers joins.
  if (os::gettid() != os::getpid()) {
    refuse(h, "the program exited from a thread other than its main thread");
    return;
  }
  if (rt::Controller* c = rt::Controller::active(); c != nullptr && !c->end_carriers()) {
    refuse(h, "a thread of the program had not finished at its exit");
    return;
  }
  std::fflush(nullptr);  // the program's buffered output, as exit would write it
  std::vector<Event> unfinished;
  s.strategy->execution_done(
      region_trace(*s.region, &unfinished));  // a KeptStrategy: in the kept arena
  h.runner_status.store(W_EXITCODE(status, 0), std::memory_order_relaxed);
  const std::string why = g_snapshot->restore(&committed, &s);
  refuse(h, why);  // (restore returns only when it refuses)
}

}  // namespace weft::explorer
