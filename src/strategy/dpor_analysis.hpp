#pragma once
// The races of one finished execution that dynamic partial-order reduction must reverse,
// with their source sets: source-DPOR (Abdulla, Aronis, Jonsson, Sagonas, "Optimal
// Dynamic Partial Order Reduction", POPL'14, Algorithm 1), which with sleep sets is
// complete (every Mazurkiewicz trace) where Flanagan and Godefroid's lookahead rule
// (POPL'05; GAMBIT Figure 4 lines 27-41) loses traces once threads sleep.
//
// A race is a step e and a later step e' of another thread that is dependent with it
// (dependence.hpp) and an immediate happens-before predecessor of it: nothing else orders
// them. An unlock before a lock, a create before the thread's start, an exit before its
// join cannot be reversed (the later step waits for the earlier): the race is with what
// came before them on the object (the previous lock, ...). To reverse e and e', some
// thread must run at e's state first whose first step in v (the steps after e that do
// not happen after it, then e') happens after nothing else in v: the initials of v.
#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "strategy/dependence.hpp"
#include "strategy/execution_tree.hpp"

namespace weft {

class DporAnalysis {
 public:
  struct Race {
    std::uint32_t decision = 0;   // where e was chosen: the state to branch at
    ThreadId thread = kNoThread;  // who ran e'
    std::uint32_t first = 0;      // the initials: initials_[first, first + count)
    std::uint32_t count = 0;      // (e''s thread first when it is one)
    bool before_release = false;  // e releases (an unlock, a post, ...)
  };

  // The races whose later step e' was taken from decision `first` on and before step
  // `end_step` (a sleep-set blocked execution's later steps add nothing).
  void analyze(const Trace& trace, const ExecutionTree& tree, std::size_t first,
               std::size_t end_step);
  std::span<const Race> races() const { return races_; }
  std::span<const ThreadId> initials(const Race& r) const {
    return std::span<const ThreadId>(initials_).subspan(r.first, r.count);
  }

 private:
  struct KeyState {
    std::vector<std::uint32_t> steps;  // every step touching the key, in order
    std::vector<std::uint8_t> writes;  // parallel to steps
    std::int64_t last_write = -1;      // while the clocks are computed
    std::vector<std::uint32_t> reads;  // reads since last_write
    ThreadId holder = kNoThread;       // a mutex's, while the clocks are computed
    std::uint32_t depth = 0;           // its holder's locks (recursive mutexes)
  };
  // Follows who holds the mutex (its KeyState) step e locks, unlocks or waits with, and
  // returns who held it before e (kNoThread: nobody).
  static ThreadId track_holder(KeyState& ks, const Event& e);
  static std::uintptr_t mutex_of(const Op& op);
  std::uint32_t* clock(std::size_t step) { return &clocks_[step * threads_]; }
  const std::uint32_t* clock(std::size_t step) const { return &clocks_[step * threads_]; }
  void join(std::uint32_t* into, std::size_t step);
  // Step i happens before step k (or is k).
  bool happens_before(std::size_t i, std::size_t k) const {
    return clock(k)[(*trace_)[i].thread] >= index_[i];
  }
  std::size_t anchor(std::size_t step) const;
  bool enabled_at(std::size_t step, ThreadId t) const;
  // Step ej (of another thread, later) certainly waited for something not there when
  // step a ran: the mutex held by a third thread, or a try at a failed for want of it.
  bool unavailable_at(std::size_t a, const Event& ej) const;
  // Step a, taken inside code run as if atomic, is reversed where its region began
  // (anchor): ej, a lock, could not run there when another thread held the mutex then.
  bool held_at_anchor(const KeyState& ks, std::size_t a, const Event& ej) const;
  // j: a step, or the trace's size for a step the execution did not take (ej).
  // with_exits false: the steps that ended the process are not predecessors (for a step
  // the execution left unfinished, which never ran after them).
  void predecessors(std::size_t j, const Event& ej, std::int64_t before,
                    std::vector<std::uint32_t>* out, bool with_exits = true);
  std::size_t move_end(std::size_t a) const;
  void add_race(std::size_t i, std::size_t j, ThreadId q);
  void unfinished_race(const Event& e, std::int64_t last);
  void collect_trace_keys();
  std::span<const ObjectAccess> accesses_of(const Event& e);

  const Trace* trace_ = nullptr;
  const ExecutionTree* tree_ = nullptr;
  std::size_t threads_ = 0;
  std::vector<std::uint32_t> clocks_;    // steps x threads
  std::vector<std::uint32_t> index_;     // the step's place in its thread, from 1
  std::vector<std::int64_t> previous_;   // the thread's previous step, -1: none
  std::vector<std::int64_t> created_;    // per thread: the step that created it, -1
  std::vector<std::uint32_t> decision_;  // per step: its thread decision
  std::vector<ThreadId> holder_at_;      // per step: track_holder()
  std::vector<std::uint32_t> exits_;     // process-exit steps
  std::unordered_map<std::uint64_t, KeyState> keys_;
  std::vector<std::uint64_t> trace_keys_;  // collect_trace_keys() (empty: not built)
  ObjectAccess fixed_[2];                  // accesses_of(): most steps' objects
  std::vector<ObjectAccess> accesses_;     // accesses_of(): a free's
  std::vector<std::uint32_t> candidates_;
  std::vector<std::uint32_t> soft_;
  std::vector<std::int64_t> first_in_v_;  // per thread: its first step in v, -1
  std::vector<std::uint8_t> done_;        // per thread: its unfinished step weighed
  std::vector<Race> races_;
  std::vector<ThreadId> initials_;
};

}  // namespace weft
