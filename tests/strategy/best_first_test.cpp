// bf (GAMBIT's best-first search, PPoPP'10 Figure 4) on model programs: any priority
// changes the order, never the space. Without a bound it covers every happens-before
// class DPOR covers; with --bound pb:<c> it runs exactly the executions pb:<c> runs. Its
// memory follows the frontier; method= and var= reach a bug planted where they point
// sooner than dfs does.
#include "strategy/best_first.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "strategy/dfs.hpp"
#include "strategy/dpor.hpp"
#include "strategy/preemption_bound.hpp"
#include "strategy/registry.hpp"
#include "support/hb_classes.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"
#include "test_util.hpp"

namespace weft {
namespace {

using model::Program;
using Kind = BfPriority::Kind;

Program random_program(std::uint64_t seed) { return model::random_program(seed, false); }

std::unique_ptr<BestFirstStrategy> bf(std::vector<Kind> kinds,
                                      std::uint64_t bound = BestFirstStrategy::kUnbounded,
                                      std::uint64_t seed = 1) {
  std::vector<BfPriority> ps;
  for (Kind k : kinds) ps.push_back({k, {}});
  return std::make_unique<BestFirstStrategy>("bf", std::move(ps), bound, seed);
}

const std::vector<std::vector<Kind>> kPriorityLists = {
    {Kind::kPb}, {Kind::kDpor}, {Kind::kMdpor, Kind::kPb}, {Kind::kSs, Kind::kMdpor},
    {Kind::kRand}, {Kind::kRand, Kind::kPb}};

TEST(BestFirst, EveryPriorityCoversEveryClassDporCovers) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Program p = random_program(seed);
    DfsStrategy dfs;
    const model::ClassCount all = model::collect_classes(dfs, p);
    for (std::size_t k = 0; k < kPriorityLists.size(); ++k) {
      auto s = bf(kPriorityLists[k], BestFirstStrategy::kUnbounded, seed);
      const model::ClassCount got = model::collect_classes(*s, p);
      EXPECT_TRUE(got.exhausted);
      EXPECT_EQ(got.classes, all.classes) << "seed " << seed << ", priority list " << k;
      EXPECT_TRUE(got.coverage.complete) << got.coverage.summary;
      EXPECT_EQ(got.coverage.kind, CoverageKind::kFull);
    }
  }
}

TEST(BestFirst, WithABoundItRunsExactlyTheExecutionsPbRuns) {
  for (std::uint64_t bound = 0; bound <= 2; ++bound)
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
      const Program p = random_program(seed);
      PreemptionBoundStrategy pb(bound);
      const auto expected = test::schedules(pb, p, 1000000);
      const std::set<std::string> want(expected.begin(), expected.end());
      for (std::size_t k = 0; k < kPriorityLists.size(); ++k) {
        auto s = bf(kPriorityLists[k], bound, seed);
        const auto got = test::schedules(*s, p, 1000000);
        EXPECT_EQ(got.size(), expected.size()) << "bound " << bound << " seed " << seed;
        EXPECT_EQ(std::set<std::string>(got.begin(), got.end()), want)
            << "bound " << bound << " seed " << seed << " list " << k;
        const Coverage c = s->coverage();
        EXPECT_TRUE(c.complete) << c.summary;
        EXPECT_EQ(c.kind, CoverageKind::kPreemptionBound);
        EXPECT_EQ(c.bound, static_cast<std::int64_t>(bound));
      }
    }
}

TEST(BestFirst, PbFirstRunsExecutionsInOrderOfPreemptions) {
  const Program p = random_program(7);
  auto s = bf({Kind::kPb}, 2);
  model::Executor ex(p);
  std::size_t last = 0;
  while (s->next_execution()) {
    ex.run(*s);
    std::size_t preemptions = 0;
    for (const Event& e : ex.events()) preemptions += (e.flags & kPreemption) != 0;
    EXPECT_GE(preemptions, last);
    last = preemptions;
  }
}

TEST(BestFirst, MemoryFollowsTheFrontierNotTheExecutions) {
  // A correct program with a large space: 4 threads of 3 locked increments, 369,600
  // lock orders. GAMBIT (Figure 5) reports a peak of 28% of the executions alive for its
  // DPOR search; the frontier ordered by mdpor then pb stays below a quarter, and plain
  // dpor (equal priorities: depth first) keeps a few dozen nodes.
  Program p;
  const auto x = p.variable("x");
  const auto m = p.mutex("m");
  for (int t = 0; t < 4; ++t) {
    model::ThreadBuilder b = p.thread("T" + std::to_string(t));
    for (int i = 0; i < 3; ++i) b.lock(m).read(x, 0).write(x, 1).unlock(m);
  }
  auto s = bf({Kind::kMdpor, Kind::kPb});
  const model::RunResult r = model::run(*s, p, 0, {.count_distinct = false});
  const ExecutionTree::Stats& st = s->tree().stats();
  std::printf("bf:mdpor,pb: %llu executions, %llu nodes created, peak %llu alive\n",
              static_cast<unsigned long long>(r.executions),
              static_cast<unsigned long long>(st.nodes_created),
              static_cast<unsigned long long>(st.peak_alive));
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.executions, 369600u);
  EXPECT_EQ(st.nodes_alive, 0u) << "the tree frees itself";
  EXPECT_LT(st.peak_alive * 4, r.executions) << "peak " << st.peak_alive;
  DporStrategy dpor;
  const model::RunResult d = model::run(dpor, p, 0, {.count_distinct = false});
  EXPECT_EQ(d.executions, 369600u);
  EXPECT_LT(dpor.tree().stats().peak_alive, 100u);
}

// The bug: a reader sees x between T1's two writes, which come first in T1, before a long
// tail of unrelated locked work. Depth-first search backtracks from the end and reaches
// T1's early preemption point last; method= (T1's writes) and var= (x) go there first.
Program planted_bug() {
  Program p;
  const auto noise = p.variable("noise");
  const auto x = p.variable("x", 0);
  const auto m = p.mutex("m");
  for (int t = 0; t < 3; ++t) {
    model::ThreadBuilder b = p.thread("T" + std::to_string(t));
    if (t == 1) b.write(x, 1).write(x, 0);  // nobody may see x == 1
    for (int i = 0; i < 3; ++i) b.lock(m).fetch_add(noise, 1, 0).unlock(m);
    if (t != 1)
      b.read(x, 1).check([](const model::State& s, model::ThreadIndex self) {
        return s.reg(self, 1) == 0;
      }, "saw the intermediate x");
  }
  return p;
}

std::int64_t first_hit(Strategy& s, const Program& p) {
  const model::RunResult r = model::run(s, p, 200000, {.stop_at_first_hit = true});
  return r.first_hit;
}

TEST(BestFirst, MethodAndVarReachAPlantedBugSoonerThanDfs) {
  const Program p = planted_bug();
  DfsStrategy dfs;
  const std::int64_t by_dfs = first_hit(dfs, p);
  ASSERT_GE(by_dfs, 0);
  // T1's code: the model gives each op a fake return address 0x400000 + (t << 16) + 4*pc.
  BfPriority method{Kind::kMethod, {{0x400000 + (1u << 16), 0x400000 + (1u << 16) + 4 * 2}}};
  BestFirstStrategy by_method("bf:method", {method, {Kind::kPb, {}}}, BestFirstStrategy::kUnbounded, 1);
  const std::int64_t m = first_hit(by_method, p);
  BfPriority var{Kind::kVar, {{model::Executor::object_address(1), model::Executor::object_address(1) + 8}}};
  BestFirstStrategy by_var("bf:var", {var, {Kind::kPb, {}}}, BestFirstStrategy::kUnbounded, 1);
  const std::int64_t v = first_hit(by_var, p);
  std::printf("first hit: dfs %lld, bf:method=T1's writes %lld, bf:var=x %lld\n",
              static_cast<long long>(by_dfs), static_cast<long long>(m), static_cast<long long>(v));
  ASSERT_GE(m, 0);
  ASSERT_GE(v, 0);
  EXPECT_LT(m, by_dfs);
  EXPECT_LT(v, by_dfs);
}

// A stand-in for the program's symbol tables.
class FakeSymbols final : public ProgramSymbols {
 public:
  std::vector<AddressRange> functions(std::string_view name) override {
    if (name == "Queue::push") return {{0x1000, 0x1100}};
    return {};
  }
  std::vector<AddressRange> variables(std::string_view name) override {
    if (name == "g_head") return {{0x2000, 0x2008}};
    return {};
  }
};

TEST(BestFirst, TheRegistryParsesPrioritiesAndRefusesBadOnes) {
  FakeSymbols symbols;
  const StrategyOptions with{.symbols = &symbols};
  std::string error;
  for (const char* good : {"bf", "bf:pb", "bf:mdpor,pb", "bf:ss,mdpor", "bf:rand",
                           "bf:method=Queue::push,pb", "bf:var=g_head,0x1234,dpor"}) {
    EXPECT_NE(make_strategy(good, 1, &error, with), nullptr) << good << ": " << error;
  }
  auto refuses = [&](const char* spec, const char* why, StrategyOptions o) {
    error.clear();
    EXPECT_EQ(make_strategy(spec, 1, &error, o), nullptr) << spec;
    EXPECT_NE(error.find(why), std::string::npos) << spec << ": " << error;
  };
  refuses("bf:fast", "unknown priority \"fast\"", with);
  refuses("bf:method=", "method= needs at least one name", with);
  refuses("bf:var=nothing", "var=\"nothing\" names no global or static variable", with);
  refuses("bf:method=Nope::f", "names no function", with);
  refuses("bf:var=0xzz", "is not an address", with);
  refuses("bf:method=f", "needs the program's symbols", {});
  refuses("bf:pb,pb,pb,pb,pb,pb", "at most 5 priorities", with);
  StrategyOptions bounded = with;
  bounded.preemption_bound = 2;
  EXPECT_NE(make_strategy("bf:mdpor", 1, &error, bounded), nullptr) << error;
  EXPECT_NE(make_strategy("dfs", 1, &error, bounded), nullptr) << error;
  refuses("random", "--bound applies to dfs and bf only", bounded);
  refuses("pb:2", "takes its bound in its spec", bounded);
  std::uint64_t b = 0;
  EXPECT_TRUE(parse_bound_option("pb:3", &b, &error));
  EXPECT_EQ(b, 3u);
  EXPECT_FALSE(parse_bound_option("db:3", &b, &error));
  EXPECT_NE(error.find("expected pb:<c>"), std::string::npos) << error;
  // Names are only checked for syntax when the program is not loaded yet.
  EXPECT_NE(make_strategy("bf:method=anything", 1, &error, {.syntax_only = true}), nullptr);
}

}  // namespace
}  // namespace weft
