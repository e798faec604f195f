// Teams (weft run --jobs on a systematic strategy): the workers of one search pass each
// other frontier nodes (ExecutionTree::give/take) and forward the branches found for
// nodes another owns (DPOR's backtrack points above a subtree given away). Simulated here
// as explore/work_team.cpp runs it: rounds of executions, then an exchange planned by
// core/team_plan.hpp. Together the workers must run exactly the one-worker search's
// executions (strategies whose branches are a function of the execution), or cover
// exactly its happens-before classes (DPOR, best-first), and work must actually move.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/team_plan.hpp"
#include "strategy/registry.hpp"
#include "support/hb_classes.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"

namespace weft {
namespace {

using model::Program;
using model::Steps;
using model::steps_of;

struct TeamRun {
  std::map<Steps, int> executions;  // counted executions of all workers, by their steps
  std::set<model::ClassKey> classes;
  std::uint64_t counted = 0;
  std::uint64_t classes_counted = 0;  // the workers' coverage.classes, summed
  std::uint64_t moved = 0;            // frontier nodes given away
  std::uint64_t forwarded = 0;        // branches forwarded to their owner
  bool complete = true;
};

std::unique_ptr<Strategy> make(const std::string& spec, const StrategyOptions& options) {
  std::string error;
  auto s = make_strategy(spec, 7, &error, options);
  EXPECT_NE(s, nullptr) << spec << ": " << error;
  return s;
}

// n workers sharing `shard` of the search (n == 1: one worker alone), worker 0 beginning
// with all of it, as weft run --jobs n [--shard I/N] runs them.
// share_states false: the state caches' news (records for every worker) are dropped.
TeamRun run_team(const std::string& spec, const Program& program, std::uint32_t n,
                 Shard shard = {}, const StrategyOptions& options = {.state_cache = false},
                 bool share_states = true) {
  std::vector<std::unique_ptr<Strategy>> workers;
  for (std::uint32_t i = 0; i < n; ++i) {
    workers.push_back(make(spec, options));
    if (!workers.back()) return {};
    EXPECT_TRUE(workers.back()->distribution().set_shard(shard));
    EXPECT_EQ(workers.back()->distribution().join_team(i, 0, i == 0), true) << spec;
  }
  TeamRun r;
  model::Executor ex(program);
  std::uint64_t length = TeamPlan::kShortRound;
  for (int exchanges = 0; exchanges < 100000; ++exchanges) {
    for (auto& s : workers) {
      for (std::uint64_t in_round = 0; in_round < length && s->distribution().work_left() > 0;) {
        if (!s->next_execution()) break;
        const bool probe = s->distribution().probing();
        ex.run(*s);
        if (probe) continue;
        ++in_round;
        ++r.counted;
        ++r.executions[steps_of(ex.events())];
        r.classes.insert(model::hb_class(ex.events()));
      }
    }
    // The exchange: what each published, the plan, the work given, the forwards.
    std::vector<TeamMember> members;
    std::vector<std::vector<std::uint64_t>> outboxes(n);
    bool done = true;
    for (std::uint32_t i = 0; i < n; ++i) {
      workers[i]->distribution().take_forwards(&outboxes[i]);
      members.push_back(TeamMember{i, workers[i]->distribution().work_left(), 0});
      done &= members.back().work == 0 && outboxes[i].empty();
    }
    if (done) break;
    const TeamPlan plan = plan_team(members, length);
    for (const TeamTransfer& t : plan.transfers) {
      std::vector<std::uint64_t> words;
      r.moved += workers[t.giver]->distribution().give_work(t.count, 1 << 18, &words);
      workers[t.taker]->distribution().take_work(words);
    }
    for (std::uint32_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < outboxes[i].size(); k += outboxes[i][k]) {
        const std::span<const std::uint64_t> record(outboxes[i].data() + k, outboxes[i][k]);
        if (record[1] == Distribution::kEveryWorker) {
          for (std::uint32_t j = 0; j < n; ++j)
            if (j != i && share_states) workers[j]->distribution().accept_forward(record);
          continue;
        }
        // (Also to itself: a subtree given back holds stubs of the worker's own nodes.)
        EXPECT_LT(record[1], n);
        workers[record[1]]->distribution().accept_forward(record);
        ++r.forwarded;
      }
    length = plan.next_length;
  }
  for (auto& s : workers) {
    EXPECT_FALSE(s->next_execution()) << "every worker is out of work";
    const Coverage c = s->coverage();
    r.complete &= c.complete;
    r.classes_counted += c.classes;
  }
  return r;
}

// Branches that are a function of the execution: the team runs each execution of the
// one-worker search exactly once.
TEST(Team, SystematicTeamsRunEachExecutionOnce) {
  std::uint64_t moved = 0, total = 0;
  for (const char* spec : {"dfs", "pb:1", "db:1", "vb:1,1"}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      const Program p = model::random_program(seed, seed % 2 == 0);
      const TeamRun whole = run_team(spec, p, 1);
      ASSERT_TRUE(whole.complete) << spec << " seed " << seed;
      for (std::uint32_t n : {2u, 3u}) {
        const TeamRun team = run_team(spec, p, n);
        EXPECT_TRUE(team.complete) << spec << " seed " << seed << ", " << n << " workers";
        EXPECT_EQ(team.executions, whole.executions) << spec << " seed " << seed << ", " << n << " workers";
        EXPECT_EQ(team.counted, whole.counted) << spec << " seed " << seed << ", " << n << " workers";
        moved += team.moved;
        total += team.counted;
      }
      // Two machines (--shard I/2), two workers each: the machines' shards still partition.
      std::map<Steps, int> merged;
      for (std::uint32_t i = 0; i < 2; ++i) {
        const TeamRun part = run_team(spec, p, 2, Shard{i, 2});
        EXPECT_TRUE(part.complete) << spec << " seed " << seed << ", shard " << i;
        for (const auto& [steps, k] : part.executions) merged[steps] += k;
      }
      EXPECT_EQ(merged, whole.executions) << spec << " seed " << seed << ", 2 shards of 2 workers";
    }
  }
  std::printf("systematic teams: %llu executions, %llu frontier nodes moved\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(moved));
  EXPECT_GT(moved, 100u) << "work must move between the workers";
}

// DPOR's backtrack points depend on the order: a branch found above a subtree given away
// goes to the worker owning the node. Together the workers cover every class, none twice
// (the forwards are what makes it so: without them, classes go missing).
TEST(Team, DporTeamsCoverEveryClass) {
  for (const char* spec : {"dpor", "bf:mdpor", "bf:rand"}) {
    std::uint64_t moved = 0, forwarded = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const Program p = model::random_program(seed, seed % 3 == 0);
      const TeamRun whole = run_team(spec, p, 1);
      ASSERT_TRUE(whole.complete) << spec << " seed " << seed;
      for (std::uint32_t n : {2u, 3u}) {
        const TeamRun team = run_team(spec, p, n);
        EXPECT_TRUE(team.complete) << spec << " seed " << seed << ", " << n << " workers";
        EXPECT_EQ(team.classes, whole.classes) << spec << " seed " << seed << ", " << n << " workers";
        for (const auto& [steps, k] : team.executions)
          EXPECT_EQ(k, 1) << spec << " seed " << seed << ": an execution ran twice";
        // Each class once among the executions that are not sleep-set blocked.
        EXPECT_EQ(team.classes_counted, whole.classes.size()) << spec << " seed " << seed;
        moved += team.moved;
        forwarded += team.forwarded;
      }
    }
    std::printf("%s teams: %llu nodes moved, %llu branches forwarded\n", spec,
                static_cast<unsigned long long>(moved), static_cast<unsigned long long>(forwarded));
    EXPECT_GT(moved, 100u) << spec;
  }
}

// State caching: each worker prunes by the states every worker reached (the caches' news
// go to all at the exchanges), still covering every class.
TEST(Team, StateCachesAreShared) {
  std::uint64_t shared = 0, apart = 0;
  for (const char* spec : {"dfs", "pb:1"}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      const Program p = model::random_program(seed, seed % 2 == 0);
      const StrategyOptions cached{.state_cache = true};
      const TeamRun whole = run_team(spec, p, 1, {}, cached);
      ASSERT_TRUE(whole.complete) << spec << " seed " << seed;
      const TeamRun team = run_team(spec, p, 2, {}, cached);
      const TeamRun alone = run_team(spec, p, 2, {}, cached, /*share_states=*/false);
      EXPECT_TRUE(team.complete) << spec << " seed " << seed;
      EXPECT_EQ(team.classes, whole.classes) << spec << " seed " << seed;
      EXPECT_EQ(alone.classes, whole.classes) << spec << " seed " << seed;
      shared += team.counted;
      apart += alone.counted;
    }
  }
  std::printf("state-cached teams of 2: %llu executions, %llu with caches apart\n",
              static_cast<unsigned long long>(shared), static_cast<unsigned long long>(apart));
  EXPECT_LT(shared, apart);
}

}  // namespace
}  // namespace weft
