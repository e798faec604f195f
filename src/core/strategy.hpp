#pragma once
// The one interface every search strategy implements. A strategy knows nothing of
// threads or processes: it sees scheduling points and finished traces.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/coverage.hpp"
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
  // Before the first execution: cover only `shard` of the space (core/shard.hpp). false:
  // the strategy cannot be sharded, and is unchanged.
  virtual bool set_shard(const Shard& shard) { return shard.count == 1; }
  // The execution prepared by the last next_execution() is a probe: a sharded systematic
  // search runs it only to learn where the tree splits; another shard owns it. It is not
  // counted, and a bug it shows is that shard's to report.
  virtual bool probing() const { return false; }
};

}  // namespace weft
