#pragma once
// The one interface every search strategy implements. A strategy knows nothing of
// threads or processes: it sees scheduling points and finished traces.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

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

  // weft run --jobs: the workers of one systematic search pass work to each other
  // between executions (explore/work_team.hpp moves the words). true: this strategy
  // takes part, as worker `worker`, in the schedule space `space` (work of another space
  // is refused). Before the first execution; `begins`: with the whole search, else with
  // nothing (its work comes from the others).
  virtual bool join_team(std::uint32_t worker, std::uint64_t space, bool begins) { return false; }
  // Executions known still to run here.
  virtual std::uint64_t work_left() const { return 0; }
  // Moves up to `max` of them to another worker: appended to *out (at most `max_words`).
  virtual std::uint64_t give_work(std::uint64_t max, std::size_t max_words,
                                  std::vector<std::uint64_t>* out) {
    return 0;
  }
  // Runs the work another worker's give_work() wrote.
  virtual void take_work(std::span<const std::uint64_t> words) {}
  // Work found for other workers since the last call: records, each [its length in
  // words, the worker it is for (kEveryWorker: all the others), ...]; and one such
  // record for this worker.
  static constexpr std::uint64_t kEveryWorker = ~std::uint64_t{0};
  virtual void take_forwards(std::vector<std::uint64_t>* out) {}
  virtual void accept_forward(std::span<const std::uint64_t> record) {}

  // weft run --checkpoint (core/checkpoint.hpp): the search saved between executions and
  // resumed by another process, which then runs exactly what this one would have.
  // Whether this strategy can (the registry's answer for a spec, even syntax_only).
  virtual bool resumable() const { return false; }
  // Appends the state to *out (core/state_words.hpp). `unfinished`: the execution the last
  // next_execution() prepared never ended; the state is as before it, so that the resumed
  // search runs it again.
  virtual void save_state(bool unfinished, std::vector<std::uint64_t>* out) const {}
  // Before the first execution, on a strategy made with the same spec, seed, options and
  // shard: takes the state save_state() wrote. false: the words are not such a state (a
  // damaged file), and the strategy must not be used.
  virtual bool load_state(std::span<const std::uint64_t> words) { return false; }
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
