#pragma once
// Livelock verdicts (CHESS 4.3), as functions of an execution's last steps: whether the
// threads still running at the step bound were making progress (a long execution, cut at
// the bound rather than reported), and what a livelock report says.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/event.hpp"
#include "core/run_record.hpp"

namespace weft::detect {

// The steps a verdict looks back over.
inline constexpr std::uint64_t kLivelockWindow = 1000;

// A read-modify-write step that changed memory (one that did not is marked kUnchanged).
bool changed_memory(const Event& e);

// Under fair scheduling a livelock is threads spinning while they wait, and fairness
// marks every yield and detected spin (sched_yield, sleeps, loops of loads or
// read-modify-writes, failed try-locks): there must be none in `window`, apart from
// read-modify-writes that changed memory (fairness must take a loop of them for a spin
// before they run: a test-and-set spin is one; counting is work). A loop that waits
// without looking like a spin (it also stores) starves the thread it waits for (a
// good-samaritan violation): so a thread of `enabled` that did not run in the window is
// a sign, unless the runners also synchronised (locks, semaphores, condition
// variables...), which a memory-polling loop does not: a thread taking a lock over and
// over while a priority schedule holds the others back works. So does one that changes
// many objects (a parallel-for body's atomic increments of an array's elements): a loop
// that waits changes the same few, whatever the schedule.
bool progressing(std::span<const Event> window, std::span<const ThreadId> enabled);

struct Livelock {
  std::string message;
  std::vector<BlockedThread> runners;  // each thread that ran in the window, with its last op
};
// The report of an execution that exceeded `max_steps`, `window` its last steps: who ran,
// whether they yielded (a good-samaritan violation when one never did), and whether they
// looked like a spin or a long computation. `fair`: fair scheduling was on (off, a
// schedule may just starve a thread: only a possible livelock).
Livelock describe_livelock(std::span<const Event> window, std::uint64_t max_steps, bool fair);

}  // namespace weft::detect
