#pragma once
// PCT, probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi, Nagarakatte,
// "A Randomized Scheduler with Probabilistic Guarantees of Finding Bugs", ASPLOS 2010),
// exactly as published:
//   - the threads get distinct random priorities d, d+1, ..., d+n-1;
//   - d-1 priority change points k_1..k_{d-1} are drawn uniformly from [1, k];
//   - the enabled thread of highest priority runs;
//   - when the thread that ran step k_i (counting steps from 1) has run it, its priority
//     drops to i, below every initial priority.
// Guarantee (the paper's Theorem): a bug of depth d (d-1 ordering constraints besides
// the first thread) in a program of at most n threads and k steps is found by each
// execution with probability at least 1/(n * k^(d-1)).
#include <cstdint>
#include <vector>

#include "strategy/pct_priorities.hpp"
#include "strategy/sampling_strategy.hpp"

namespace weft {

class PctStrategy final : public SamplingStrategy {
 public:
  static constexpr std::uint64_t kDefaultSteps = 100;

  // depth >= 1. steps = k; 0: estimate k as the longest execution seen so far
  // (kDefaultSteps before the first has ended). With a fixed k, execution i depends on
  // Rng(execution_seed(seed, i)) only; with the estimate, also on the executions before.
  PctStrategy(std::uint64_t seed, std::uint32_t depth, std::uint64_t steps = 0);

  bool next_execution() override;  // never exhausted
  ThreadId choose(const SchedulingPoint& p) override;
  void execution_done(const Trace& trace) override;
  Coverage coverage() const override;  // kind "none", with the guarantee in the summary

  std::uint32_t depth() const { return depth_; }
  std::uint64_t steps() const;  // k for the next execution

 private:
  struct ChangePoint {
    std::uint64_t step;
    std::uint32_t priority;
  };

  // Checkpoints: the executions' count, and what they taught.
  void save_more(StateWriter& w) const override {
    w.put(longest_);
    w.put(max_threads_);
  }
  void load_more(StateReader& r) override {
    longest_ = r.get();
    max_threads_ = r.get();
  }

  std::uint32_t depth_;
  std::uint64_t fixed_steps_;
  std::uint64_t longest_ = 0;         // steps of the longest execution so far
  std::uint64_t max_threads_ = 0;     // most threads seen in one execution
  PctPriorities priorities_;          // of this execution's threads
  std::vector<ChangePoint> changes_;  // by step; equal steps by i, so the last i wins
  std::size_t next_change_ = 0;
};

}  // namespace weft
