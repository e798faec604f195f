#pragma once
// Thread bounding (Bindal, Bansal, Lal, "Variable and Thread Bounding for Systematic
// Testing of Multithreaded Programs", section 4): a bug is a t-thread bug when ordering
// constraints among t threads expose it; most need t = 2..4. Each execution:
//   - draws a random permutation pi of the n + c thread fragments: a thread's priority
//     is its fragment's place in pi, and the i-th of c preemptions starts a new fragment
//     of the thread that was running (its priority becomes pi_{n+i});
//   - runs strict priority scheduling: the enabled thread of highest priority runs.
// The c preemptions fall at change points drawn uniformly from [1, k] as in PCT (the
// paper's randomized RankChecker, section 5); c = 0 needs none.
// Guarantee (Lemma 4.1): after m = t! * (t ln N + ln(1/eps)) random permutations of N
// fragments, every ordering of every t of them has been the priority order with
// probability at least 1 - eps (eps = 1%). For t = 2 two permutations suffice: the
// first two executions use the increasing and the decreasing order (section 4).
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "core/strategy.hpp"

namespace weft {

class ThreadBoundStrategy final : public Strategy, public Distribution {
 public:
  static constexpr std::uint64_t kDefaultSteps = 100;  // k before an execution has ended
  static constexpr double kMissProbability = 0.01;     // eps of the coverage statement
  // A thread that yields this many times drops below every other (section 5: strict
  // priorities would otherwise let a spin loop starve the thread it waits for).
  static constexpr std::uint32_t kYieldsBeforeLowering = 100;

  // threads = t >= 2; preemptions = c; steps = k (0: the longest execution so far).
  ThreadBoundStrategy(std::uint64_t seed, std::uint32_t threads, std::uint32_t preemptions = 0,
                      std::uint64_t steps = 0);

  // Lemma 4.1's count: random permutations of n items after which every ordering of
  // every t of them has appeared with probability >= 1 - eps. ceil(t! (t ln n - ln eps)).
  static std::uint64_t permutations_needed(std::uint64_t n, std::uint32_t t,
                                           double eps = kMissProbability);

  // Executions 0 and 1: the increasing and the decreasing priority order (fragments in
  // order of appearance); then random ones. With c = 0, execution i depends on
  // Rng(execution_seed(seed, i)) only. Never exhausted: the count is a probability.
  bool next_execution() override;
  ThreadId choose(const SchedulingPoint& p) override;
  std::size_t choose_value(std::size_t n) override;  // uniform
  void execution_done(const Trace& trace) override;
  // kind "thread-bound"; bound: the largest t' <= t whose orderings are covered (t' = 2
  // after the two fixed orders, t' >= 3 once the random permutations have reached
  // Lemma 4.1's count for the fragments seen, n = most threads in one execution, + c);
  // -1 before; complete once bound == t.
  Distribution& distribution() override { return *this; }
  bool set_shard(const Shard& shard) override {
    shard_ = shard;
    return true;
  }
  Coverage coverage() const override;

  std::uint32_t thread_bound() const { return t_; }
  std::uint32_t preemptions() const { return c_; }
  std::uint64_t steps() const;  // k for the next execution
  // Executions needed to cover t'-thread orderings of `items` fragments (both orders
  // fixed executions included).
  std::uint64_t executions_needed(std::uint64_t items, std::uint32_t t) const;

 private:
  enum class Order : std::uint8_t { kIncreasing, kDecreasing, kRandom };
  void add_fragment(ThreadId t);  // a new item at a place that depends on order_
  void lower(ThreadId t);         // its item to the bottom
  std::uint32_t priority(ThreadId t) const { return rank_[item_[t]]; }

  std::uint64_t seed_;
  Shard shard_;  // execution k draws from execution_seed(seed_, shard_.global(k))
  std::uint32_t t_;
  std::uint32_t c_;
  std::uint64_t fixed_steps_;
  std::uint64_t longest_ = 0;
  std::uint64_t max_threads_ = 0;
  std::uint64_t executions_ = 0;  // started
  std::uint64_t done_ = 0;        // ended
  Order order_ = Order::kIncreasing;
  Rng rng_;
  std::vector<std::uint32_t> rank_;     // by item (fragment), 0 lowest: a permutation
  std::vector<std::uint32_t> item_;     // by ThreadId: its current fragment
  std::vector<std::uint32_t> yields_;   // by ThreadId, since it was last lowered
  std::uint32_t threads_ = 0;           // threads seen in this execution
  std::vector<std::uint64_t> changes_;  // change point steps, ascending
  std::size_t next_change_ = 0;
};

}  // namespace weft
