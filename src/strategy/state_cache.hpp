#pragma once
// State caching for the systematic strategies (CHESS, Musuvathi et al. OSDI'08, section
// 4.4.2): two execution prefixes with the same happens-before graph reach the same state,
// so a branch whose prefix was already explored (at the same or a lower bound) adds
// nothing and is pruned.
//
// The happens-before graph of a prefix is hashed as the sum of a hash per event: its
// thread, its index in that thread, its operation and object, and its vector clock over
// the dependence relation (same thread, or same object with a write or release; thread
// create/start and exit/join are dependent too; a free writes every object in its
// block). A sum does not depend on the order of the events, so every interleaving of one
// Mazurkiewicz trace hashes alike, and the hash of a prefix extended by one event is one addition.
// Data choices (which waiter wakes) are part of the state and are hashed with the step they happen
// in; so is the thread that ran last, on which the cost of what follows (a preemption or not)
// depends.
//
// Assumed, as CHESS does: the program is deterministic and its memory accesses are
// ordered by the operations weft sees (no data race hidden between scheduling points).
// Fairness bookkeeping (who yielded) is not part of the state.
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "core/event.hpp"
#include "strategy/execution_tree.hpp"

namespace weft {

class StateCache {
 public:
  // Hashes the prefixes of a finished execution: for every decision at or after `first`,
  // the prefix extended by each of its options (threads in tree.enabled(r) order, values
  // 0..n-1), and the prefix it took.
  void scan(const Trace& trace, const ExecutionTree& tree, std::size_t first);
  // The keys scan() computed for decision `d` (>= first): option `i`, and the one taken.
  std::uint64_t option_key(std::size_t d, std::size_t i) const { return options_[d - first_][i]; }

  // True when `key` was reached before at a cost no higher than `cost`: the branch adds
  // nothing. Otherwise remembers it at `cost` and returns false.
  bool covered(std::uint64_t key, std::uint64_t cost);
  // A finished execution's happens-before class (for the count of distinct classes).
  void note_class() { ++classes_[total_]; }

  // Teams (weft run --jobs): the states remembered (or at a lower cost) since the last
  // call go to the other workers as (key, cost) pairs, appended to *out; learn() adds
  // another worker's, pruning nothing. On from share() on.
  void share() { sharing_ = true; }
  void take_news(std::vector<std::uint64_t>* out) {
    out->insert(out->end(), news_.begin(), news_.end());
    news_.clear();
  }
  void learn(std::uint64_t key, std::uint64_t cost);

  // A checkpoint (Strategy::save_state): the states seen, the classes counted, the prunes.
  void save(StateWriter& w) const;
  bool load(StateReader& r);

  std::uint64_t pruned() const { return pruned_; }
  std::uint64_t distinct_classes() const { return classes_.size(); }
  std::size_t states() const { return seen_.size(); }

 private:
  struct ObjectState {
    std::vector<std::uint32_t> last_write;  // clock of the last write/release
    std::vector<std::uint32_t> reads;       // join of the reads since
  };
  // The vector clock an event of `t` doing `op` would have now.
  void clock_of(ThreadId t, const Op& op, std::vector<std::uint32_t>* vc) const;
  std::uint64_t event_hash(ThreadId t, const Op& op, const std::vector<std::uint32_t>& vc) const;
  void apply(ThreadId t, const Op& op);
  std::uint64_t object_key(ThreadId t, const Op& op, bool* writes) const;
  void ensure_thread(ThreadId t);
  void join_blocks(const Op& op, std::vector<std::uint32_t>* vc) const;

  // The HB state while scanning one execution.
  std::vector<std::vector<std::uint32_t>> clocks_;  // per thread
  std::vector<std::uint32_t> counts_;               // events per thread
  std::unordered_map<std::uint64_t, ObjectState> objects_;
  struct FreedBlock {
    std::uint64_t begin, end;
    std::vector<std::uint32_t> clock;  // the free's
  };
  std::vector<FreedBlock> frees_;  // this execution's, in order
  std::uint64_t total_ = 0;        // the sum of the prefix's event hashes

  std::size_t first_ = 0;
  std::vector<std::vector<std::uint64_t>> options_;        // per decision >= first
  std::unordered_map<std::uint64_t, std::uint64_t> seen_;  // key -> least cost
  std::unordered_map<std::uint64_t, std::uint32_t> classes_;
  std::uint64_t pruned_ = 0;
  bool sharing_ = false;
  std::vector<std::uint64_t> news_;  // (key, cost) pairs not yet taken
};

}  // namespace weft
