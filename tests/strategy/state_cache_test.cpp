// State caching (CHESS 4.4.2) on model programs: it may skip executions, never a state.
// On random programs the final states dfs and pb reach with caching are exactly those they
// reach without it, and independent threads collapse to one happens-before class.
#include "strategy/state_cache.hpp"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "core/rng.hpp"
#include "strategy/dfs.hpp"
#include "strategy/preemption_bound.hpp"
#include "strategy/registry.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

using model::Program;
using model::State;
using model::Value;
using FinalStates = std::set<std::vector<Value>>;

// Threads of reads (each into its own register), writes of distinct values, and some
// operations under a mutex; every final state is recorded in *sink.
Program random_program(std::uint64_t seed, FinalStates** sink) {
  Rng rng(seed);
  Program p;
  const std::size_t threads = 2 + rng.below(2);
  const std::size_t ops = 2 + rng.below(threads == 2 ? 3 : 2);  // plain dfs must stay quick
  const std::size_t objects = 1 + rng.below(3);
  std::vector<model::ObjectId> obj;
  for (std::size_t o = 0; o < objects; ++o) obj.push_back(p.variable("v" + std::to_string(o)));
  const model::ObjectId m = p.mutex("m");
  for (std::size_t t = 0; t < threads; ++t) {
    model::ThreadBuilder b = p.thread("T" + std::to_string(t));
    for (std::size_t i = 0; i < ops; ++i) {
      const bool locked = rng.below(4) == 0;
      if (locked) b.lock(m);
      const model::ObjectId o = obj[rng.below(objects)];
      if (rng.below(2) == 0)
        b.read(o, i);
      else
        b.write(o, static_cast<Value>(10 * t + i + 1));
      if (locked) b.unlock(m);
    }
  }
  p.expect_final([sink](const State& s) {
    std::vector<Value> v = s.objects;
    v.insert(v.end(), s.registers.begin(), s.registers.end());
    (*sink)->insert(v);
    return true;
  });
  return p;
}

template <typename S>
void expect_same_states(std::uint64_t seed, S&& make) {
  FinalStates plain_states, cached_states;
  FinalStates* sink = &plain_states;
  const Program p = random_program(seed, &sink);
  auto plain = make();
  const model::RunResult a = model::run(*plain, p, 0);
  sink = &cached_states;
  auto cached = make();
  cached->set_state_cache(true);
  const model::RunResult b = model::run(*cached, p, 0);
  ASSERT_TRUE(a.exhausted && b.exhausted) << "seed " << seed;
  EXPECT_EQ(plain_states, cached_states) << "seed " << seed;
  EXPECT_LE(b.executions, a.executions) << "seed " << seed;
  EXPECT_TRUE(b.coverage.complete) << b.coverage.summary;
}

TEST(StateCache, DfsReachesEveryFinalStateItReachesWithoutCaching) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed)
    expect_same_states(seed, [] { return std::make_unique<DfsStrategy>(); });
}

TEST(StateCache, PreemptionBoundingReachesTheSameStatesWithinEachBound) {
  for (std::uint64_t bound = 0; bound <= 2; ++bound)
    for (std::uint64_t seed = 1; seed <= 40; ++seed)
      expect_same_states(seed, [bound] { return std::make_unique<PreemptionBoundStrategy>(bound); });
}

TEST(StateCache, IndependentThreadsAreOneHappensBeforeClass) {
  Program p;
  const auto x = p.variable("x"), y = p.variable("y");
  p.thread("A").write(x, 1).write(x, 2).write(x, 3);
  p.thread("B").write(y, 1).write(y, 2).write(y, 3);
  DfsStrategy plain;
  const model::RunResult a = model::run(plain, p, 0);
  DfsStrategy cached;
  cached.set_state_cache(true);
  const model::RunResult b = model::run(cached, p, 0);
  EXPECT_EQ(a.executions, 20u);  // C(6,3) interleavings
  EXPECT_EQ(cached.state_cache()->distinct_classes(), 1u);
  EXPECT_LT(b.executions, a.executions);
  EXPECT_NE(b.coverage.summary.find("1 happens-before class,"), std::string::npos)
      << b.coverage.summary;
}

TEST(StateCache, DependentThreadsKeepEveryClass) {
  // Two threads writing one variable: every interleaving orders the writes differently
  // somewhere, so no execution is redundant: C(4,2) = 6 classes, 6 executions.
  Program p;
  const auto x = p.variable("x");
  p.thread("A").write(x, 1).write(x, 2);
  p.thread("B").write(x, 3).write(x, 4);
  DfsStrategy cached;
  cached.set_state_cache(true);
  const model::RunResult r = model::run(cached, p, 0);
  EXPECT_EQ(r.executions, 6u);
  EXPECT_EQ(cached.state_cache()->distinct_classes(), 6u);
}

TEST(StateCache, TheRegistryCachesUnlessToldNot) {
  std::string error;
  auto on = make_strategy("pb:2", 0, &error);
  EXPECT_NE(dynamic_cast<TreeStrategy&>(*on).state_cache(), nullptr);
  auto off = make_strategy("dfs", 0, &error, StrategyOptions{.state_cache = false});
  EXPECT_EQ(dynamic_cast<TreeStrategy&>(*off).state_cache(), nullptr);
}

}  // namespace
}  // namespace weft
