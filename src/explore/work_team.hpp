#pragma once
// weft run --jobs on a systematic strategy: the workers of one search pass each other
// work, so that none idles while another still has subtrees to explore (a static split
// of the execution tree gives subtrees of very different sizes).
//
// The workers run in rounds. After round_length() executions of its own (at once when
// it has none left), each worker takes part in an exchange, collective and in three
// phases separated by a barrier in the --jobs control file (core/jobs_layout.hpp):
//   1. it publishes how much work it has and the branches it found for other workers'
//      nodes (ExecutionTree stubs: DPOR backtrack points above a subtree it was given);
//   2. every worker computes the same plan from what was published: each worker out of
//      work gets half the work of one that has the most; the givers write it;
//   3. each worker takes what it was given and the branches forwarded to it.
// Everything a worker runs is thus a function of what was published at the barriers,
// never of timing: with the same seed and worker count, each worker runs the same
// executions in the same rounds, and slot_base() numbers them the same way, so that the
// first bug (the least global number) is the same on every run.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/distribution.hpp"
#include "core/team_plan.hpp"

namespace weft::explorer {

class WorkTeam {
 public:
  // Maps the team area of the control file; inactive (every call a no-op) when `path`
  // is empty or cannot be mapped.
  WorkTeam(const std::string& path, std::uint32_t worker, std::uint32_t workers);
  ~WorkTeam();
  WorkTeam(const WorkTeam&) = delete;
  WorkTeam& operator=(const WorkTeam&) = delete;
  bool active() const { return words_ != nullptr && !left_; }

  enum class Outcome {
    kGoOn,  // the next round: work may have come
    kDone,  // every worker is out of work: the search is complete
    kLeft,  // the team broke up (a worker died; time ran out, or weft interrupted, while waiting)
  };
  // The code locations that race, as the workers saw them (--preempt-on racy): each
  // publishes its own at an exchange and learns everyone's, so that all search one space.
  struct RacyNews {
    std::vector<std::uint64_t> all;  // the union of every worker's, sorted
    bool held = false;               // some worker already searches with all of them
    bool shared = true;              // every worker does
    std::uint32_t first = 0;         // the lowest worker in the exchange
  };
  // One exchange (above). `space` names the schedule space: work moves only between
  // workers searching the same one, and the search is not done while their spaces
  // differ. `deadline_ns`: monotonic time to give up waiting (0: none). `racy`: this
  // worker's racy locations, sorted; *news: everyone's.
  Outcome exchange(Distribution& search, std::uint64_t space, std::uint64_t deadline_ns,
                   const std::vector<std::uintptr_t>& racy = {}, RacyNews* news = nullptr);
  // Executions a worker runs in this round before the next exchange.
  std::uint64_t round_length() const { return length_; }
  // The global order of this round's executions starts here: the k-th of this worker's
  // in the round is slot_base() + k (every worker counts the same rounds).
  std::uint64_t slot_base() const { return slot_base_; }
  // This worker leaves: the others no longer wait for it. Idempotent.
  void leave();
  // In an execution's child (which returns from the server into the program, past this
  // object's destructor): the team is the server's, not to leave from here.
  void disown() {
    words_ = nullptr;
    map_ = nullptr;
  }

 private:
  std::atomic<std::uint64_t>& word(std::size_t i) const { return words_[i]; }
  std::atomic<std::uint64_t>& slot(std::uint32_t worker, std::size_t field) const;
  bool arrive(std::uint64_t deadline_ns);
  void learn_racy(const std::vector<TeamMember>& members, RacyNews* news) const;
  void depart(bool arrived, std::uint32_t generation);

  std::atomic<std::uint64_t>* words_ = nullptr;  // the team area
  std::size_t bytes_ = 0;
  void* map_ = nullptr;
  std::uint32_t worker_ = 0;
  std::uint32_t workers_ = 1;
  bool left_ = false;
  std::uint64_t round_ = 0;
  std::uint64_t length_ = 0;
  std::uint64_t slot_base_ = 0;
  std::vector<std::uint64_t> carry_;  // forwards not yet published (the outbox was full)
  std::vector<std::uint64_t> buffer_;
};

}  // namespace weft::explorer
