// Sharding (core/shard.hpp): N shards of a search, each run alone, must together run
// exactly the unsharded search's executions (systematic strategies whose branches are a
// function of the execution), cover exactly its happens-before classes with none twice
// (DPOR and unbounded best-first, whose branches depend on the order), or draw exactly
// its seeds (samplers). Checked on random model programs against the unsharded run.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "strategy/registry.hpp"
#include "support/hb_classes.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"

namespace weft {
namespace {

using model::Program;
using model::Steps;
using model::steps_of;

struct ShardRun {
  std::map<Steps, int> executions;  // counted executions, by their steps
  std::set<model::ClassKey> classes;
  std::uint64_t counted = 0, probes = 0;
  Coverage coverage;
};

ShardRun run_shard(const std::string& spec, const Program& program, Shard shard,
                   std::uint64_t limit = 0) {
  StrategyOptions options{.state_cache = false};
  std::string error;
  std::unique_ptr<Strategy> s = make_strategy(spec, 7, &error, options);
  EXPECT_NE(s, nullptr) << spec << ": " << error;
  if (!s) return {};
  EXPECT_TRUE(s->distribution().set_shard(shard)) << spec;
  ShardRun r;
  model::Executor ex(program);
  while (limit == 0 || r.counted < limit) {
    if (!s->next_execution()) break;
    const bool probe = s->distribution().probing();
    ex.run(*s);
    if (probe) {
      ++r.probes;
      continue;
    }
    ++r.counted;
    ++r.executions[steps_of(ex.events())];
    r.classes.insert(model::hb_class(ex.events()));
  }
  r.coverage = s->coverage();
  return r;
}

// Systematic strategies whose tree does not depend on the order of the search: the
// shards' executions are a partition of the unsharded ones.
TEST(Shard, SystematicShardsPartitionTheExecutions) {
  std::uint64_t total = 0, probes = 0;
  for (const char* spec : {"dfs", "pb:1", "db:1", "vb:1,1"}) {
    for (std::uint64_t seed = 1; seed <= 25; ++seed) {
      const Program p = model::random_program(seed, seed % 2 == 0);
      const ShardRun whole = run_shard(spec, p, Shard{});
      ASSERT_TRUE(whole.coverage.complete) << spec << " seed " << seed;
      for (std::uint32_t n : {2u, 3u}) {
        std::map<Steps, int> merged;
        std::uint64_t counted = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
          const ShardRun part = run_shard(spec, p, Shard{i, n});
          EXPECT_TRUE(part.coverage.complete) << spec << " seed " << seed << " shard " << i;
          for (const auto& [steps, k] : part.executions) merged[steps] += k;
          counted += part.counted;
          probes += part.probes;
        }
        EXPECT_EQ(merged, whole.executions) << spec << " seed " << seed << ", " << n << " shards";
        EXPECT_EQ(counted, whole.counted) << spec << " seed " << seed << ", " << n << " shards";
        total += counted;
      }
    }
  }
  std::printf("systematic shards: %llu executions, %llu probes\n",
              static_cast<unsigned long long>(total), static_cast<unsigned long long>(probes));
}

// With a preemption bound, best-first search's space is pb's: a partition as well.
TEST(Shard, BoundedBestFirstShardsPartitionTheExecutions) {
  for (std::uint64_t seed = 1; seed <= 25; ++seed) {
    const Program p = model::random_program(seed, false);
    StrategyOptions options{.state_cache = false, .preemption_bound = 1};
    std::string error;
    auto run = [&](Shard shard) {
      std::map<Steps, int> got;
      auto s = make_strategy("bf:mdpor,pb", 3, &error, options);
      EXPECT_TRUE(s && s->distribution().set_shard(shard)) << error;
      model::Executor ex(p);
      while (s->next_execution()) {
        const bool probe = s->distribution().probing();
        ex.run(*s);
        if (!probe) ++got[steps_of(ex.events())];
      }
      EXPECT_TRUE(s->coverage().complete);
      return got;
    };
    const auto whole = run(Shard{});
    std::map<Steps, int> merged;
    for (std::uint32_t i = 0; i < 2; ++i)
      for (const auto& [steps, k] : run(Shard{i, 2})) merged[steps] += k;
    EXPECT_EQ(merged, whole) << "seed " << seed;
  }
}

// DPOR's backtrack points depend on the order: the shards branch the root fully and
// split there. Together they cover every class, none twice among the executions that
// are not sleep-set blocked.
TEST(Shard, DporShardsCoverEveryClassOnce) {
  for (const char* spec : {"dpor", "bf:mdpor", "bf:rand"}) {
    std::uint64_t extra = 0, executions = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
      const Program p = model::random_program(seed, seed % 3 == 0);
      const ShardRun whole = run_shard(spec, p, Shard{});
      ASSERT_TRUE(whole.coverage.complete) << spec << " seed " << seed;
      for (std::uint32_t n : {2u, 3u}) {
        std::set<model::ClassKey> merged;
        std::uint64_t classes = 0, counted = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
          const ShardRun part = run_shard(spec, p, Shard{i, n});
          EXPECT_TRUE(part.coverage.complete) << spec << " seed " << seed;
          EXPECT_EQ(part.coverage.kind, CoverageKind::kFull);
          merged.insert(part.classes.begin(), part.classes.end());
          classes += part.coverage.classes;
          counted += part.counted;
        }
        EXPECT_EQ(merged, whole.classes) << spec << " seed " << seed << ", " << n << " shards";
        EXPECT_EQ(classes, whole.classes.size()) << spec << " seed " << seed << ", " << n << " shards";
        executions += counted;
        extra += counted - whole.counted;
      }
    }
    std::printf("%s shards: %llu executions, %llu more than unsharded\n", spec,
                static_cast<unsigned long long>(executions), static_cast<unsigned long long>(extra));
  }
}

// Samplers: shard i of n runs the unsharded executions i, i + n, i + 2n, ... PCT and
// PCTVB also estimate an execution's length from the executions before: on a program
// whose executions all have one length, they agree from each shard's second execution.
TEST(Shard, SamplerShardsDrawTheUnshardedSeeds) {
  for (const char* spec : {"random", "pct:3", "pos", "pos*", "pctvb:2,2", "tb:2"}) {
    const bool estimates = std::string(spec).rfind("pct", 0) == 0;
    const Program p = model::random_program(11, !estimates);
    std::vector<Steps> whole;
    {
      std::string error;
      auto s = make_strategy(spec, 5, &error);
      ASSERT_NE(s, nullptr) << error;
      model::Executor ex(p);
      for (int k = 0; k < 30 && s->next_execution(); ++k) {
        ex.run(*s);
        whole.push_back(steps_of(ex.events()));
      }
    }
    for (std::uint32_t n : {2u, 3u})
      for (std::uint32_t i = 0; i < n; ++i) {
        std::string error;
        auto s = make_strategy(spec, 5, &error);
        ASSERT_TRUE(s->distribution().set_shard(Shard{i, n})) << spec;
        model::Executor ex(p);
        for (std::size_t k = i; k < whole.size() && s->next_execution(); k += n) {
          EXPECT_FALSE(s->distribution().probing());
          ex.run(*s);
          if (estimates && i != 0 && k == i) continue;
          EXPECT_EQ(steps_of(ex.events()), whole[k]) << spec << " shard " << i << "/" << n
                                                     << ", execution " << k;
        }
      }
  }
}

// A portfolio gives its members to different shards.
TEST(Shard, PortfolioPutsMembersOnDifferentShards) {
  const Program p = model::random_program(4, false);
  std::string error;
  std::vector<std::string> origins[2];
  for (std::uint32_t i = 0; i < 2; ++i) {
    auto s = make_strategy("portfolio:random+dfs+pct:2", 1, &error);
    ASSERT_NE(s, nullptr) << error;
    ASSERT_TRUE(s->distribution().set_shard(Shard{i, 2}));
    model::Executor ex(p);
    for (int k = 0; k < 12 && s->next_execution(); ++k) {
      ex.run(*s);
      origins[i].push_back(s->coverage().origin);
    }
  }
  for (const std::string& o : origins[0]) EXPECT_TRUE(o == "random" || o == "pct:2") << o;
  for (const std::string& o : origins[1]) EXPECT_EQ(o, "dfs");
}

}  // namespace
}  // namespace weft
