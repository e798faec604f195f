#pragma once
// bf:<p1>[,<p2>...]: GAMBIT's best-first search (Coons, Burckhardt, Musuvathi, "GAMBIT:
// Effective Unit Testing for Concurrency Libraries", PPoPP'10, Figure 4 and section 4).
//
// The frontier of the execution tree holds the executions not yet run; the best one runs
// next. Priorities are hierarchical: the first function decides, ties go to the next, and
// among equals the tree's depth-first order holds (deepest decision first, newest last),
// so memory stays proportional to the frontier. Only the order changes, never the space:
//   - with a preemption bound (--bound pb:<c>), every execution with at most c
//     preemptions is explored (FindBacktrackingPoints, lines 17-26), as pb:<c> does;
//   - without, the space is DPOR's (dpor.hpp: source-DPOR with sleep sets), and the search
//     completes with the same happens-before coverage.
//
// Priority functions (section 4):
//   pb      fewer preemptions first
//   dpor    backtrack points DPOR would add first
//   mdpor   as dpor, but DPOR's conservative points (lines 35-37: the racing thread was
//           not enabled there) and points before a release come after the others
//   ss      points sleep sets do not prune first
//   rand    a random priority (seeded): a randomized order with the coverage guarantee
//   method=<f>[,<f>...]  preemptions whose preempted and preempting threads are both in
//           the named functions first (High), then one of them (Medium), then neither
//   var=<v>[,<v>...]     likewise for preemptions at accesses to the named variables
//           (symbols, or addresses as 0x...)
#include <cstdint>
#include <string>
#include <vector>

#include "core/program_symbols.hpp"
#include "core/rng.hpp"
#include "strategy/dpor.hpp"

namespace weft {

struct BfPriority {
  enum class Kind { kPb, kDpor, kMdpor, kSs, kRand, kMethod, kVar };
  Kind kind = Kind::kPb;
  std::vector<AddressRange> ranges;  // method= and var=
};

class BestFirstStrategy final : public DporStrategy {
 public:
  static constexpr std::size_t kMaxPriorities = 5;  // 12 bits each in the frontier's key
  static constexpr std::uint64_t kUnbounded = ~std::uint64_t{0};

  // name: the spec, for summaries ("bf:mdpor,pb"). bound: the most preemptions an
  // execution may have (kUnbounded: the DPOR space).
  BestFirstStrategy(std::string name, std::vector<BfPriority> priorities, std::uint64_t bound,
                    std::uint64_t seed);
  ThreadId choose(const SchedulingPoint& p) override;
  Coverage coverage() const override;

 private:
  // Within a preemption bound the branches are a function of the execution alone.
  bool branches_from_races() const override { return bound_ == kUnbounded; }
  void expand(const Trace& trace) override;
  std::int64_t priority_of(std::size_t decision, ThreadId thread, bool value, bool conservative,
                           bool before_release) override;
  void expand_bounded(const Trace& trace);
  void save_extra(bool unfinished, StateWriter& w) const override;
  bool load_extra(StateReader& r) override;
  // DPOR's view of a branch in the bounded space: 0 not a DPOR point, 1 conservative or
  // before a release, 2 a point DPOR adds for a reversible race.
  void classify(const Trace& trace);
  std::uint64_t cost_of(std::size_t decision, ThreadId thread) const;
  // How many of the threads a preemption at `decision` by `thread` involves are in
  // `ranges`: by code (method=) or by the object of their next operation (var=).
  int involved(std::size_t decision, ThreadId thread, const BfPriority& p) const;

  std::string name_;
  std::vector<BfPriority> priorities_;
  std::uint64_t bound_;
  Rng rng_;
  const Trace* trace_ = nullptr;            // during expand()
  std::vector<std::uint64_t> prefix_cost_;  // per decision: preemptions before it
  std::vector<std::uint8_t> dpor_class_;    // bounded: per (decision, enabled index)
  std::vector<std::uint32_t> class_first_;  // per decision: offset into dpor_class_
  std::uint64_t beyond_bound_ = 0;
  std::uint64_t max_cost_ = 0;
};

}  // namespace weft
