#pragma once
// Memory shared between the supervising process and the exploration process it forks:
// the child records each execution's trace and decisions straight into it, so that when
// the child dies (a crash, a bug, a hang) the parent still has the failing schedule.
#include <sys/mman.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "core/coverage.hpp"
#include "core/event.hpp"
#include "core/schedule.hpp"
#include "detect/bug_slot.hpp"
#include "runtime/allocation_log.hpp"
#include "runtime/thread_notes.hpp"

namespace weft::explorer {

// A data race reported (--races=report) by the execution process.
struct RaceSlot {
  DataRace race;
  std::uint64_t execution = 0;
};

struct SharedHeader {
  static constexpr std::uint32_t kMaxRaces = 256;
  static constexpr std::uint32_t kMaxUnfinished = 256;

  std::atomic<int> finished{0};  // the child completed the run normally
  // A runner (runner.hpp), its executions numbered in a sequence of their own: the one
  // the server tells it to run next (runner_go, a futex word, counts the times it did),
  // the one it began, the one it has run to its end and restored the process from, and
  // that one's exit status.
  std::atomic<std::uint64_t> runner_next{0};
  std::atomic<std::uint32_t> runner_go{0};
  std::atomic<std::uint64_t> runner_started{0};
  std::atomic<std::uint64_t> runner_done{0};
  std::atomic<int> runner_status{0};
  char runner_refused[160] = {};      // why the runner's last restore was refused
  std::atomic<std::uint64_t> cut{0};  // the execution was cut at this many steps (progressing)
  std::atomic<std::uint64_t> executions{0};  // the running execution's number (bugs name it)
  std::atomic<std::uint64_t> counted{0};     // the explorer's own executions, that one included
  std::atomic<std::uint64_t> steps{0};       // of the current execution
  std::atomic<std::uint64_t> decisions{0};   // of the current execution
  std::atomic<std::uint64_t> holder{0};      // thread id << 32 | kernel tid of the runner
  detect::StackSample sampled;  // where a hung thread was, with its callers (fork server)
  bool complete = false;
  bool instrumented = false;
  std::int64_t coverage_bound = -1;
  std::uint64_t coverage_executions = 0;
  std::uint64_t coverage_classes = 0;
  std::uint64_t coverage_nodes_created = 0;
  std::uint64_t coverage_peak_nodes = 0;
  bool coverage_complete = false;
  CoverageKind coverage_kind = CoverageKind::kNone;
  char coverage_summary[512] = {};
  char coverage_origin[64] = {};
  char coverage_nondeterminism[512] = {};
  char error[1024] = {};        // a tool error: bad option, divergent replay
  std::uintptr_t error_pc = 0;  // where in the program, when it says something
  detect::BugSlot bug;
  // The threads the execution left unfinished, at their next operations (a deadlock's,
  // an exit's): partial-order reduction reverses races with them.
  std::uint32_t nunfinished = 0;
  BlockedThread unfinished[kMaxUnfinished];
  // Every distinct race reported so far in the exploration (never cleared between
  // executions: the execution process appends the pairs of locations not yet there).
  std::atomic<std::uint32_t> nraces{0};
  RaceSlot races[kMaxRaces];
  // The in-process explorer's extra scheduling points (Schedule::points), comma-joined.
  char points[8192] = {};
  // The current execution's thread names and heap blocks (reports name them).
  rt::ThreadNotes thread_notes;
  rt::AllocationLog allocations;
};

class SharedRegion {
 public:
  SharedRegion(std::size_t max_events, std::size_t max_decisions)
      : max_events_(max_events), max_decisions_(max_decisions) {
    events_offset_ = align(sizeof(SharedHeader));
    decisions_offset_ = align(events_offset_ + max_events * sizeof(Event));
    size_ = align(decisions_offset_ + max_decisions * sizeof(Decision));
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<char*>(p);
    if (base_ != nullptr) new (base_) SharedHeader();
  }
  ~SharedRegion() {
    if (base_ != nullptr) munmap(base_, size_);
  }
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;

  bool ok() const { return base_ != nullptr; }
  SharedHeader& header() { return *reinterpret_cast<SharedHeader*>(base_); }
  Event* events() { return reinterpret_cast<Event*>(base_ + events_offset_); }
  Decision* decisions() { return reinterpret_cast<Decision*>(base_ + decisions_offset_); }
  std::size_t max_events() const { return max_events_; }
  std::size_t size() const { return size_; }
  std::size_t max_decisions() const { return max_decisions_; }

 private:
  static std::size_t align(std::size_t n) { return (n + 4095) & ~std::size_t{4095}; }
  std::size_t max_events_, max_decisions_;
  std::size_t events_offset_ = 0, decisions_offset_ = 0, size_ = 0;
  char* base_ = nullptr;
};

}  // namespace weft::explorer
