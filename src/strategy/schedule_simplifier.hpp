#pragma once
// Fewer preemptions for a failing schedule (trace simplification, after Jalbert and Sen,
// "A trace simplification technique for effective debugging of concurrent programs",
// FSE 2010). A sampler's schedule switches threads dozens of times where the bug needs
// two or three switches; iterative preemption bounding finds the fewest, but in a large
// program its bound 1 alone can take tens of thousands of executions.
//
// Three kinds of candidate, each one execution. A schedule is a list of blocks (thread T runs
// n steps): two blocks of one thread with others between them are merged, the later moved
// up to follow the earlier (T is not preempted there) or the earlier down to precede the
// later (the others run first). And a schedule is a set of switches (after T's n-th step,
// U runs): anchored in the threads' own progress, a switch keeps its meaning when others
// go, so each is dropped in turn. Last, two neighbouring blocks of different threads
// swap places (the order in which threads take their turns). A GuidedStrategy runs a candidate by
// its switches, every other step non-preemptive (default_choice). A candidate whose execution shows
// the same bug with fewer preemptions (or as many in fewer switches) becomes the schedule
// simplified next, until no candidate of the current one helps (a local minimum).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/schedule.hpp"
#include "core/strategy.hpp"

namespace weft {

struct ThreadSwitch {
  ThreadId from = kNoThread;  // kNoThread: the first step
  std::uint32_t after = 0;    // ...after `from`'s this many steps
  ThreadId to = kNoThread;
};

// A schedule's switches and data choices, in order.
struct SwitchSchedule {
  std::vector<ThreadSwitch> switches;
  std::vector<std::uint32_t> values;
  static SwitchSchedule of(const std::vector<Decision>& decisions);
};

class ScheduleSimplifier {
 public:
  explicit ScheduleSimplifier(const std::vector<Decision>& found) { improved(found); }
  // The next schedule to try; false when every candidate of the current one was tried.
  bool next(std::vector<Decision>* candidate);
  // The last candidate's execution showed the same bug with fewer preemptions (or
  // switches), running `executed`: from now on that schedule is simplified.
  void improved(const std::vector<Decision>& executed);

 private:
  struct Block {
    Decision decision;  // a thread, or a data choice (never moved)
    std::uint32_t count;
  };
  // The block after `i` of the same thread, with other threads' blocks between, or none.
  std::size_t partner(std::size_t i) const;
  // The decisions of `blocks`, into *out.
  static void expand(const std::vector<Block>& blocks, std::vector<Decision>* out);
  bool next_merge(std::vector<Decision>* candidate);
  bool next_drop(std::vector<Decision>* candidate);
  bool next_swap(std::vector<Decision>* candidate);

  std::vector<Decision> current_;
  std::vector<Block> blocks_;
  std::size_t merge_ = 0;  // the earlier block of the next merge
  bool down_ = false;      // the next merge moves it down (else its partner up)
  std::size_t drop_ = 0;   // the next candidate drops switch drop_ - 1 (the last first)
  std::size_t swap_ = 0;   // the next candidate swaps blocks swap_ and swap_ + 1
};

// Runs a schedule by its switches: at each step, the switch for the current thread's
// progress if it names an enabled thread, else default_choice; data choices in order (0
// past them).
class GuidedStrategy final : public OneExecutionStrategy {
 public:
  explicit GuidedStrategy(const std::vector<Decision>& decisions)
      : schedule_(SwitchSchedule::of(decisions)) {}
  ThreadId choose(const SchedulingPoint& p) override;
  std::size_t choose_value(std::size_t n) override;
  void execution_done(const Trace&) override {}

 private:
  SwitchSchedule schedule_;
  std::vector<std::uint32_t> steps_;  // per thread, steps taken
  std::size_t value_ = 0;
};

}  // namespace weft
