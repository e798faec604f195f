#pragma once
// The one interface every search strategy implements. A strategy knows nothing of
// threads or processes: it sees scheduling points and finished traces. What it offers
// beyond choosing (shards, teams, checkpoints) is its distribution().
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/coverage.hpp"
#include "core/distribution.hpp"
#include "core/event.hpp"
#include "core/scheduling_point.hpp"
#include "core/shard.hpp"

namespace weft {

class Strategy {
 public:
  virtual ~Strategy() = default;
  // Prepares the next execution. false: the space is exhausted (or the strategy's own
  // bound is reached); no further call but coverage() follows.
  virtual bool next_execution() = 0;
  // Called at every step; returns one of p.enabled.
  virtual ThreadId choose(const SchedulingPoint& p) = 0;
  // Data nondeterminism (timeouts, spurious wakeups): a value in [0, n), n >= 2.
  // 0 is the default outcome (no timeout, no spurious wakeup).
  virtual std::size_t choose_value(std::size_t n) = 0;
  // The execution prepared by the last next_execution() has ended (normally or with a
  // bug); `trace` holds every step. Backtracking strategies read it.
  virtual void execution_done(const Trace& trace) = 0;
  virtual Coverage coverage() const = 0;
  // The strategy's decisions rest on plain memory accesses (pctvb): it is unavailable
  // for a program built without weft's instrumentation.
  virtual bool needs_memory_accesses() const { return false; }
  // coverage() with the search's memory (Coverage::nodes_created, peak_nodes) filled in
  // by the strategies that keep an execution tree.
  virtual Coverage coverage_with_stats() const { return coverage(); }
  // Shards, --jobs teams and checkpoints (core/distribution.hpp): the defaults (none of
  // them) unless the strategy offers them.
  virtual Distribution& distribution() { return no_distribution(); }
  const Distribution& distribution() const { return const_cast<Strategy*>(this)->distribution(); }

 private:
  static Distribution& no_distribution() {
    static Distribution none;  // stateless: every default answers the same
    return none;
  }
};

// A strategy that runs one given schedule, once (a replay, a candidate of minimisation):
// it covers nothing.
class OneExecutionStrategy : public Strategy {
 public:
  bool next_execution() override {
    if (started_) return false;
    started_ = true;
    return true;
  }
  Coverage coverage() const override { return Coverage{}; }

 private:
  bool started_ = false;
};

}  // namespace weft
