// Random walk: reproducible from its seed, each execution on its own seed, uniform over
// the enabled threads, and the POS paper's 1/128 on its running example.
#include "strategy/random_walk.hpp"

#include <gtest/gtest.h>

#include "strategy/dfs.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"
#include "support/sampling.hpp"
#include "test_util.hpp"

namespace weft {
namespace {

using model::ObjectId;
using model::Program;
using model::within_ci;

Program locked_pair() {
  Program p;
  const ObjectId m = p.mutex("m");
  const ObjectId y = p.variable("y");
  for (const char* name : {"A", "B"}) {
    const ObjectId x = p.variable(std::string("x") + name);
    p.thread(name).write(x, 1).lock(m).write(y, 1).unlock(m);
  }
  return p;
}

TEST(RandomWalk, TheSameSeedGivesTheSameSchedules) {
  const Program p = model::pos_running_example();
  RandomWalkStrategy a(42), b(42), c(43);
  const auto sa = test::schedules(a, p, 200);
  EXPECT_EQ(sa, test::schedules(b, p, 200));
  EXPECT_NE(sa, test::schedules(c, p, 200));
}

TEST(RandomWalk, EachExecutionDependsOnlyOnTheSeedAndItsIndex) {
  // Whatever ran before (other programs, other lengths), execution 7 is the same.
  const Program q = model::pos_running_example();
  RandomWalkStrategy a(9), b(9);
  test::schedules(a, model::independent_threads(4, 3), 7);
  test::schedules(b, locked_pair(), 7);
  const auto ta = test::schedules(a, q, 3);
  const auto tb = test::schedules(b, q, 3);
  EXPECT_EQ(ta, tb);
  EXPECT_EQ(a.coverage().executions, 10u);
}

TEST(RandomWalk, ChoosesOnlyEnabledThreadsAndReachesEverySchedule) {
  RandomWalkStrategy s(1);
  const model::RunResult r = model::run(s, locked_pair(), 3000);
  EXPECT_EQ(r.violations, 0u) << r.violation;
  EXPECT_EQ(r.distinct_schedules, 10u);  // all of them (see dfs_test)
  const model::RunResult pos = model::run(s, model::pos_running_example(), 3000);
  EXPECT_EQ(pos.violations, 0u) << pos.violation;
  EXPECT_EQ(pos.distinct_schedules, 95u);
  EXPECT_FALSE(pos.exhausted);
}

TEST(RandomWalk, PicksUniformlyAmongTheEnabled) {
  RandomWalkStrategy s(5);
  const int n = 30000;
  const auto h = test::histogram(s, model::independent_threads(3, 1), n);
  // The first pick decides the rest only partly; count the first thread.
  std::uint64_t first[3] = {};
  for (const auto& [schedule, count] : h) first[schedule[0] - '0'] += count;
  for (int t = 0; t < 3; ++t) EXPECT_TRUE(within_ci(first[t], n, 1.0 / 3)) << "thread " << t;
}

TEST(RandomWalk, ChoosesValuesUniformly) {
  Program p;
  p.thread("A").choose(5, 0);
  RandomWalkStrategy s(6);
  const int n = 50000;
  const auto h = test::histogram(s, p, n);
  ASSERT_EQ(h.size(), 5u);
  for (int v = 0; v < 5; ++v)
    EXPECT_TRUE(within_ci(h.at("0v" + std::to_string(v)), n, 0.2)) << "value " << v;
}

// The probability that a random walk runs exactly the schedule of a hitting execution is
// the product of 1/|enabled| over its steps; DFS enumerates them all.
double random_walk_probability(const Program& p) {
  DfsStrategy dfs;
  model::Executor ex(p);
  double total = 0;
  while (dfs.next_execution()) {
    if (!ex.run(dfs).hit) continue;
    double q = 1;
    for (const Event& e : ex.events()) q /= e.enabled;
    total += q;
  }
  return total;
}

TEST(RandomWalk, PosExampleTheoryIsOneIn128) {
  // Seven of the ten steps of the bug's order have both threads enabled (A2, A3 run while
  // B waits at B4, A4 is alone at the end): 1/2^7.
  EXPECT_DOUBLE_EQ(random_walk_probability(model::pos_running_example()), 1.0 / 128);
  // With a main thread that spawns A and B and joins them: main must spawn B before A
  // starts (1/2 more); its joins are blocked until A ends and then come last: 1/256.
  EXPECT_DOUBLE_EQ(random_walk_probability(model::pos_running_example(true)), 1.0 / 256);
}

TEST(RandomWalk, PosExampleIsHitOnceIn128) {
  RandomWalkStrategy s(2024);
  const std::uint64_t n = 100000;
  const model::RunResult r =
      model::run(s, model::pos_running_example(), n, {.count_distinct = false});
  EXPECT_EQ(r.executions, n);
  EXPECT_TRUE(within_ci(r.hits, n, 1.0 / 128));
  EXPECT_EQ(r.violations, 0u);
}

TEST(RandomWalk, PosExampleWithAMainThreadIsHitOnceIn256) {
  RandomWalkStrategy s(2025);
  const std::uint64_t n = 100000;
  const model::RunResult r =
      model::run(s, model::pos_running_example(true), n, {.count_distinct = false});
  EXPECT_TRUE(within_ci(r.hits, n, 1.0 / 256));
}

TEST(RandomWalk, ClaimsNoCoverage) {
  RandomWalkStrategy s(0);
  model::run(s, model::independent_threads(2, 2), 10);
  const Coverage c = s.coverage();
  EXPECT_EQ(c.kind, CoverageKind::kNone);
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.executions, 10u);
}

}  // namespace
}  // namespace weft
