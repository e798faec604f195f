#pragma once
// PCTVB, PCT with variable bounding ("Variable and thread bounding for systematic testing
// of multithreaded programs", section 3; ../shared/papers/variable-and-thread-bounding.txt):
// PCT whose d-1 priority change points fall only on accesses to v variables chosen at
// random per execution.
//   0. choose v variables x_1..x_v uniformly among the program's shared variables;
//   1. give the threads random distinct priorities (as PCT);
//   2. with k_i the most accesses to x_i seen in any one execution, draw d-1 elements of
//      {(i, j) : 1 <= i <= v, 1 <= j <= k_i} uniformly;
//   3. run the enabled thread of highest priority; for the i-th drawn element (x, j), once
//      a thread has made the j-th access to x, its priority drops to i.
// Guarantee (the paper's Theorem 3.1 with the choice of variables): a depth-d bug whose
// preemptions fall on v variables is found per execution with probability at least
// 1 / (C(V, v) * n * K^(d-1)), K = k_1 + ... + k_v, V the number of variables: better than
// PCT's 1/(n*k^(d-1)) when the bug's variables are accessed rarely ("corner variables").
//
// Variables are the objects (addresses) of memory accesses seen as scheduling points, the
// ones more than one thread touched first (the paper prefers shared variables); a heap
// object is a variable of its own, as in the paper's exhaustive variant. The first
// execution, knowing none, runs on priorities alone and learns them.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "strategy/pct_priorities.hpp"
#include "strategy/sampling_strategy.hpp"

namespace weft {

class PctvbStrategy final : public SamplingStrategy {
 public:
  // depth >= 1 (d), variables >= 1 (v).
  PctvbStrategy(std::uint64_t seed, std::uint32_t depth, std::uint32_t variables);

  bool next_execution() override;  // never exhausted
  ThreadId choose(const SchedulingPoint& p) override;
  void execution_done(const Trace& trace) override;
  // What it learnt of the program's variables is not saved: no checkpoints.
  bool resumable() const override { return false; }
  Coverage coverage() const override;  // kind "none", the guarantee in the summary
  bool needs_memory_accesses() const override { return true; }

  std::size_t known_variables() const { return vars_.size(); }

 private:
  struct Variable {
    std::uintptr_t object = 0;
    std::uint32_t max_accesses = 0;  // k_i: the most in one execution
    ThreadId first_thread = kNoThread;
    bool shared = false;  // accessed by two threads
  };
  struct ChangePoint {
    std::size_t chosen;      // index into chosen_
    std::uint32_t access;    // j: fires after the j-th access
    std::uint32_t priority;  // i
  };

  std::uint32_t depth_;
  std::uint32_t variables_;
  std::uint64_t max_threads_ = 0;
  PctPriorities priorities_;
  std::vector<Variable> vars_;
  std::unordered_map<std::uintptr_t, std::size_t> index_;  // object -> vars_
  // This execution: the chosen variables' objects, their accesses so far, the points.
  std::vector<std::uintptr_t> chosen_;
  std::vector<std::uint32_t> accesses_;
  std::vector<ChangePoint> changes_;
  ThreadId lower_thread_ = kNoThread;  // a change point fired on its last step
  std::uint32_t lower_priority_ = 0;
};

}  // namespace weft
