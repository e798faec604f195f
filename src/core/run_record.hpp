#pragma once
// The facts of one exploration, as the explorer collects them and report/ formats them.
// Plain data: no symbolization here (report/ does that lazily).
#include <cstdint>
#include <string>
#include <vector>

#include "core/coverage.hpp"
#include "core/event.hpp"
#include "core/shard.hpp"
#include "weft/bug_kind.hpp"

namespace weft {

// A thread that could not run when a deadlock was found, and what it waited on.
struct BlockedThread {
  ThreadId thread = kNoThread;
  Op op;  // its pending operation
};

// One side of a data race: a plain access by one thread.
struct RaceAccess {
  ThreadId thread = kNoThread;
  std::uintptr_t pc = 0;  // return address into the accessing code
  bool write = false;
  std::uint16_t size = 0;
  bool free = false;  // use-after-free: this side frees the block (a write of all of it)
};

// Two conflicting accesses that no happens-before edge orders: `earlier` was recorded
// first, `later` is the access that found it. For a use-after-free bug: `earlier` is the
// free, `later` the access (or second free) of the freed block.
struct DataRace {
  std::uintptr_t address = 0;  // of the later access
  RaceAccess earlier, later;
};

// An api-misuse (a threading call the object's state makes undefined): the object, what
// it is, and, when it had been destroyed, by whom, where and after how many steps. The
// rest of its history is in the trace (report/object_history.hpp).
struct Misuse {
  enum class Object : std::uint8_t { kMutex, kCondition, kSemaphore, kBarrier, kRwLock };
  std::uintptr_t object = 0;  // 0: no misuse
  Object kind = Object::kMutex;
  ThreadId destroyed_by = kNoThread;  // kNoThread: not destroyed
  std::uintptr_t destroy_pc = 0;      // return address into the destroying call's caller
  std::uint64_t destroy_step = 0;     // steps taken before the destroy
};

// A heap block the program allocated during the execution: reports name heap objects by
// where they were allocated.
struct Allocation {
  std::uintptr_t address = 0;
  std::uint64_t size = 0;
  std::uint64_t step = 0;                      // steps taken before it was allocated
  ThreadId thread = kNoThread;                 // the thread that allocated it
  std::uintptr_t pc = 0;                       // return address of the allocation call
  std::uintptr_t callers[kCallerFrames] = {};  // as Event::callers
};

// The memory a thread's stack occupies, [lo, hi): an object there is one of its locals.
struct ThreadStack {
  std::uintptr_t lo = 0, hi = 0;
  bool contains(std::uintptr_t a) const { return a >= lo && a < hi; }
};

// One frame of a thread's instrumented call stack when the execution ended: where it was
// (a return address; its function's entry pc stands in when that is another function's),
// a pc at its entry, and its canonical frame address (the caller's stack pointer before
// the call), which with the debug information places its locals (0: unknown).
struct FrameNote {
  std::uintptr_t pc = 0, entry = 0, cfa = 0;
  // The top of its memory, [cfa - memory_size, cfa), where its locals are, is kept at
  // memory_at in BugRecord::frame_memory (a pointer there names the heap block it holds).
  std::uint32_t memory_at = 0, memory_size = 0;
};

// A word of the program's own data (a global pointer) that held the start of a heap block
// when the execution ended: the report names the block after it.
struct GlobalPointer {
  std::uintptr_t global = 0, block = 0;
};

// How many of a trace's last steps a report shows by default: enough for any interleaving a
// person reads, and a report of a 100,000-step livelock is written in well under a second.
inline constexpr std::size_t kShownSteps = 1000;

struct BugRecord {
  BugKind kind = BugKind::kAssertion;
  std::string message;  // one line: what failed ("counter == 2", "SIGSEGV at 0x0")
  std::string details;  // lines that show it (wrong-output: the diff); "" none
  // A data race (--races fail): the bug it led to when the search went on past it (at most
  // one), and how many executions that search ran (0: it did not).
  std::vector<BugRecord> leads_to;
  std::uint64_t leads_to_searched = 0;
  ThreadId thread = kNoThread;  // the thread that failed (kNoThread: none in particular)
  std::uintptr_t pc =
      0;  // where it failed, read as a return address (crashes store the faulting pc + 1)
  std::vector<std::uintptr_t> stack;  // a crash's or a hang's callers of pc, innermost first
  std::uint64_t step = 0;             // steps taken when it failed
  // 1-based number of the execution that found it, in the whole search: with several
  // workers or shards, 1 + Shard::global of its place in the order that decides which bug
  // is first; the text, JSON and HTML reports all show this one.
  std::uint64_t execution = 0;
  std::uint64_t part_execution = 0;  // a worker's or shard's own count of it (0: unsharded)
  // weft run --jobs, workers sharing work: 1 + the execution's place in the order that
  // decides which worker's bug is first (explore/work_team.hpp); 0 otherwise.
  std::uint64_t order = 0;
  std::string schedule;                // encoded Schedule that reproduces it
  std::vector<Event> events;           // the execution's trace up to the failure
  std::vector<BlockedThread> blocked;  // deadlock: every unfinished thread
  std::string source_file;             // for assertions: __FILE__/__LINE__ when known
  int source_line = 0;
  std::string found_by;    // the strategy that ran it (a portfolio's member)
  std::uint64_t hits = 1;  // executions that hit it (weft run --keep-going)
  bool has_race = false;   // kind data-race: the two accesses
  DataRace race;
  Misuse misuse;  // kind api-misuse: the object and its destroy
  // Schedule minimisation: the preemptions and steps of the schedule first found (0, 0:
  // not minimised), and how many executions the minimiser ran.
  std::size_t found_preemptions = 0;
  std::uint64_t found_steps = 0;
  std::uint64_t minimize_executions = 0;
  bool minimized = false;
  // Names the program gave its threads (pthread_setname_np), indexed by thread id; "" or
  // missing: unnamed.
  std::vector<std::string> thread_names;
  // Each thread's stack, indexed by thread id (empty ranges: unknown).
  std::vector<ThreadStack> thread_stacks;
  // Each thread's frames when the execution ended, innermost first, indexed by thread id
  // (empty: unknown): a local on its stack is named by the variable there.
  std::vector<std::vector<FrameNote>> thread_frames;
  std::vector<std::uint8_t> frame_memory;      // the frames' memory (FrameNote::memory_at)
  std::vector<GlobalPointer> global_pointers;  // when the execution ended
  // The heap blocks the trace's operations touched, in allocation order (those the
  // execution allocated and the allocation log still held).
  std::vector<Allocation> allocations;
  // The first step the reports show: a long trace's last kShownSteps, all with --full-trace
  // (the schedule replays every step either way).
  std::size_t shown_from = 0;
  void show_last(std::size_t most) { shown_from = events.size() > most ? events.size() - most : 0; }
  // Steps taken when it failed (the trace may be cut short of them).
  std::uint64_t steps() const { return step != 0 ? step : events.size(); }
  std::size_t preemptions() const {
    std::size_t n = 0;
    for (const Event& e : events) n += (e.flags & kPreemption) != 0;
    return n;
  }
};

// The warning (without "warning: ") for RunRecord::cut_executions, in a run's report and
// in the merge of several.
inline std::string cut_executions_warning(std::uint64_t cut, std::uint64_t max_steps) {
  return "long executions: " + std::to_string(cut) + (cut == 1 ? " execution" : " executions") +
         " reached the step bound (--steps " + std::to_string(max_steps) +
         ") with no thread spinning, yielding or starved (working, not waiting): cut there, not "
         "reported as livelocks, and not explored past the bound; raise --steps to run them "
         "to their end";
}

// The line that says a signal stopped the search, in a run's report and in the merge of
// several workers'.
inline std::string interrupted_line(std::uint64_t executions, const std::string& signal) {
  return "interrupted after " + std::to_string(executions) +
         (executions == 1 ? " execution" : " executions") + " (" + signal +
         "): the search stopped early, not complete; the coverage above is what it reached";
}

struct RunRecord {
  std::string strategy;
  Shard shard;  // the part of the search this run covered (weft run --shard, --jobs)
  // Code locations that were racy scheduling points at the end (--preempt-on=racy): the
  // space the coverage statement is about.
  std::vector<std::string> racy_points;
  std::uint64_t seed = 0;
  std::uint64_t executions = 0;
  double elapsed_s = 0;
  bool complete = false;      // the strategy exhausted its space
  bool instrumented = false;  // memory accesses were visible (not sync-only)
  // Executions cut at the step bound (max_steps) while every thread kept making progress:
  // long executions, not livelocks, so not bugs (weft run only).
  std::uint64_t cut_executions = 0;
  // Executions run in a runner after its first (--isolate restore): the process was put
  // back instead of forked.
  std::uint64_t restored_executions = 0;
  std::uint64_t max_steps = 0;
  Coverage coverage;
  std::vector<BugRecord> bugs;
  std::string error;                  // a tool error (bad option, replay divergence): not a bug
  std::string replay_hint;            // how to replay, filled by the front end (API or CLI)
  std::vector<std::string> warnings;  // one line each (a --no-preempt-in pattern unmatched)
  // Why the run stopped with nothing to explore (the program created no thread), when it
  // did; it is also the coverage summary.
  std::string note;
  // The signal that stopped the search early ("SIGINT", "SIGTERM": weft run was
  // interrupted); "" when it ran to its end. The coverage is then what it had reached.
  std::string interrupted;
  // Data races seen with --races=report (each pair of locations once): reported, not
  // bugs. Each record holds the execution and schedule that showed it.
  std::vector<BugRecord> races;
  // A part of a larger search (shard sharded()): the places in the search's order of the
  // executions it ran, as runs {first, count}. Merging workers' results numbers every
  // execution by them: 1 + how many of the whole search's ran before it in that order.
  struct OrderRun {
    std::uint64_t first = 0;
    std::uint64_t count = 0;
  };
  std::vector<OrderRun> order_runs;
  void ran_in_order(std::uint64_t order) {
    if (!order_runs.empty() && order_runs.back().first + order_runs.back().count == order)
      ++order_runs.back().count;
    else
      order_runs.push_back({order, 1});
  }
};

}  // namespace weft
