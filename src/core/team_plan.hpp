#pragma once
// How the workers of one search share its work at an exchange (explore/work_team.hpp):
// a pure function of what each published, so that every worker computes the same plan.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace weft {

struct TeamMember {
  std::uint32_t worker = 0;
  std::uint64_t work = 0;   // executions known still to run there
  std::uint64_t space = 0;  // the schedule space it searches
};

struct TeamTransfer {
  std::uint32_t giver = 0;
  std::uint32_t taker = 0;
  std::uint64_t count = 0;  // at most this many executions (frontier nodes) move
};

struct TeamPlan {
  std::vector<TeamTransfer> transfers;
  std::uint64_t next_length = 0;  // executions per worker before the next exchange
  // Rounds: short while a worker waits for work, doubling while none does. An exchange
  // costs three barriers (tens of microseconds); a round of whole-program executions is
  // milliseconds.
  static constexpr std::uint64_t kShortRound = 4, kLongRound = 64;
};

// Each worker out of work (in worker order) gets half the work of the one with most left
// (in the same space) that has not given yet this time.
inline TeamPlan plan_team(const std::vector<TeamMember>& members, std::uint64_t length) {
  TeamPlan plan;
  std::vector<TeamMember> idle, givers;
  for (const TeamMember& m : members) {
    if (m.work == 0) idle.push_back(m);
    if (m.work >= 2) givers.push_back(m);
  }
  std::stable_sort(givers.begin(), givers.end(),
                   [](const TeamMember& a, const TeamMember& b) { return a.work > b.work; });
  for (const TeamMember& taker : idle) {
    auto giver = std::find_if(givers.begin(), givers.end(),
                              [&](const TeamMember& g) { return g.space == taker.space; });
    if (giver == givers.end()) continue;
    plan.transfers.push_back(TeamTransfer{giver->worker, taker.worker, giver->work / 2});
    givers.erase(giver);
  }
  plan.next_length =
      idle.empty() ? std::min(length * 2, TeamPlan::kLongRound) : TeamPlan::kShortRound;
  return plan;
}

}  // namespace weft
