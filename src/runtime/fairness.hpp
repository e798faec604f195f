#pragma once
// Fair scheduling (CHESS section 4.3; Musuvathi and Qadeer, "Fair stateless model
// checking", PLDI'08): a thread that yields (sched_yield, a sleep, or a spin loop of loads
// detected here) says it cannot make progress until someone else does. Past the first
// kFreeYields yields of a spin (yields and loads with no other operation of the thread in
// between), each yield makes it unschedulable until every thread enabled then has taken a
// step, so that a spin loop ends under every schedule explored and the unfair schedules,
// where the spinner starves the thread it waits for, are pruned. The first yields of a
// spin stay free: a bounded spin phase (libstdc++'s atomic wait spins 16 loads and 4
// yields before it sleeps on a futex) is explored to its end, so the bugs that need it
// (a waiter asleep before the store it waits for) stay reachable.
// The good-samaritan property is the program's side: a thread that spins without
// yielding is reported.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/op.hpp"

namespace weft::rt {

class Fairness {
 public:
  // A read-only loop of this many repeated loads of at most kSpinObjects objects, with no
  // store of the thread's own in between, counts as a yield: the loop waits for a store.
  static constexpr std::uint32_t kSpinRepeats = 4;
  static constexpr std::size_t kSpinObjects = 3;
  static constexpr std::uint32_t kFreeYields = 8;

  void set_enabled(bool on) { on_ = on; }
  bool enabled() const { return on_; }
  // A new execution: nobody owes anybody a step.
  void reset();
  // Moves from `threads` (and the matching `ops`) to `held` every thread that yielded and
  // still waits for another enabled thread to take a step. Keeps them all if that would
  // leave none.
  void filter(std::vector<ThreadId>& threads, std::vector<Op>& ops,
              std::vector<ThreadId>& held) const;
  // `t` takes a step performing `op`, chosen among `enabled` while `held` were enabled but
  // held back. Returns true when the step is a yield (explicit or a detected spin).
  bool on_step(ThreadId t, const Op& op, const std::vector<ThreadId>& enabled,
               const std::vector<ThreadId>& held);

 private:
  struct PerThread {
    std::vector<ThreadId> waits_for;  // must each take a step before this thread runs
    std::uintptr_t spin_objects[kSpinObjects] = {};
    std::size_t nspin_objects = 0;
    std::uint32_t repeats = 0;
    std::uint32_t spin_yields = 0;  // yields in the current spin
  };
  bool spinning(PerThread& p, const Op& op);

  bool on_ = true;
  std::vector<PerThread> threads_;
  std::size_t waiting_ = 0;  // threads whose waits_for is not empty (fast path when 0)
};

}  // namespace weft::rt
