#pragma once
// What a search offers beyond choosing threads (Strategy::distribution()): being split
// into shards, shared by a team of workers (weft run --jobs), and saved and resumed
// (--checkpoint). The defaults are a search that does none of these: the replay, the
// candidates of minimisation, pctvb. Tree strategies (TreeStrategy), the samplers
// (SamplingStrategy) and the portfolio implement what they can.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/shard.hpp"

namespace weft {

class Distribution {
 public:
  virtual ~Distribution() = default;

  // Before the first execution: cover only `shard` of the space (core/shard.hpp). false:
  // the search cannot be sharded, and is unchanged.
  virtual bool set_shard(const Shard& shard) { return shard.count == 1; }
  // The execution prepared by the last next_execution() is a probe: a sharded systematic
  // search runs it only to learn where the tree splits; another shard owns it. It is not
  // counted, and a bug it shows is that shard's to report.
  virtual bool probing() const { return false; }

  // weft run --jobs: the workers of one systematic search pass work to each other
  // between executions (explore/work_team.hpp moves the words). true: this search takes
  // part, as worker `worker`, in the schedule space `space` (work of another space is
  // refused). Before the first execution; `begins`: with the whole search, else with
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
  // Whether this search can (the registry's answer for a spec, even syntax_only).
  virtual bool resumable() const { return false; }
  // Appends the state to *out (core/state_words.hpp). `unfinished`: the execution the last
  // next_execution() prepared never ended; the state is as before it, so that the resumed
  // search runs it again.
  virtual void save_state(bool unfinished, std::vector<std::uint64_t>* out) const {}
  // Before the first execution, on a search made with the same spec, seed, options and
  // shard: takes the state save_state() wrote. false: the words are not such a state (a
  // damaged file), and the search must not be used.
  virtual bool load_state(std::span<const std::uint64_t> words) { return false; }
};

}  // namespace weft
