// Schedule simplification (Jalbert and Sen's trace simplification, as weft's minimiser
// runs it before preemption bounding): a GuidedStrategy reproduces the schedule it is
// given, and merging and dropping switches brings a random walk's find of a bug that
// needs one preemption down to that one.
#include "strategy/schedule_simplifier.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "strategy/random_walk.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"

namespace weft {
namespace {

std::size_t preemptions(const model::Executor& ex) {
  std::size_t n = 0;
  for (const Event& e : ex.events()) n += (e.flags & kPreemption) != 0;
  return n;
}

std::size_t switches(const std::vector<Decision>& decisions) {
  return SwitchSchedule::of(decisions).switches.size();
}

std::vector<Decision> decisions_of(const model::Executor& ex) {
  return {ex.decisions().begin(), ex.decisions().end()};
}

TEST(ScheduleSimplifier, AGuidedStrategyRunsTheScheduleItIsGiven) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    const model::Program p = model::random_program(seed, /*blocking=*/seed % 2 == 0);
    model::Executor ex(p);
    RandomWalkStrategy walk(seed);
    ASSERT_TRUE(walk.next_execution());
    ex.run(walk);
    const std::vector<Decision> walked = decisions_of(ex);
    GuidedStrategy guided(walked);
    ASSERT_TRUE(guided.next_execution());
    EXPECT_FALSE(guided.next_execution());
    ex.run(guided);
    EXPECT_EQ(decisions_of(ex), walked) << "seed " << seed;
    EXPECT_EQ(ex.violations(), 0u) << ex.violation();
  }
}

TEST(ScheduleSimplifier, CandidatesMergeBlocksDropSwitchesAndSwapBlocks) {
  // 0 1 0 1 1 2 0: blocks 0,1,0,1(2),2,0; switches: the first step's, then 0->1, 1->0,
  // 0->1, 1->2, 2->0.
  const auto t = [](std::uint32_t x) { return Decision{Decision::kThread, x}; };
  const std::vector<Decision> found = {t(0), t(1), t(0), t(1), t(1), t(2), t(0)};
  ScheduleSimplifier s(found);
  std::vector<std::vector<Decision>> seen;
  for (std::vector<Decision> c; s.next(&c);) seen.push_back(c);
  // Every candidate keeps each thread's step count, and differs from the schedule.
  for (const std::vector<Decision>& c : seen) {
    ASSERT_EQ(c.size(), found.size());
    EXPECT_NE(c, found);
  }
  // The first: thread 0's second block moved up to follow its first.
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen[0], (std::vector<Decision>{t(0), t(0), t(1), t(1), t(1), t(2), t(0)}));
  // Blocks: 3 pairs of a thread's blocks with others between, two ways each; then one
  // candidate per switch but the first step's; then 5 swaps of neighbouring blocks.
  EXPECT_EQ(seen.size(), 6 + switches(found) - 1 + 5);
  EXPECT_EQ(seen.back(), (std::vector<Decision>{t(0), t(1), t(0), t(1), t(1), t(0), t(2)}));
}

// A lost update that needs exactly one preemption (A between its read and its write),
// among a third thread's unrelated steps.
model::Program lost_update() {
  model::Program p;
  const auto x = p.variable("x");
  const auto y = p.variable("y");
  const auto m = p.mutex("m");
  for (const char* name : {"A", "B"}) {
    p.thread(name).lock(m).read(x, 0).unlock(m).yield().lock(m).access(
        OpKind::Write, x, [](model::State& s, model::ThreadIndex t) {
          s.objects[0] = s.reg(t, 0) + 1;
        }).unlock(m);
  }
  auto c = p.thread("C");
  for (int i = 0; i < 6; ++i) c.write(y, i);
  p.expect_final([x](const model::State& s) { return s[x] == 2; }, "lost update");
  return p;
}

TEST(ScheduleSimplifier, ARandomWalksFindsSimplifyToTheOnePreemptionTheBugNeeds) {
  const model::Program p = lost_update();
  model::Executor ex(p);
  int simplified = 0, needless = 0;
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    RandomWalkStrategy walk(seed);
    std::vector<Decision> best;
    std::size_t found = 0;
    for (int i = 0; i < 1000 && walk.next_execution(); ++i) {
      if (ex.run(walk).hit) {
        best = decisions_of(ex);
        found = preemptions(ex);
        break;
      }
    }
    ASSERT_FALSE(best.empty()) << "seed " << seed;
    needless += found > 1;
    std::size_t fewest = found;
    ScheduleSimplifier s(best);
    int executions = 0;
    for (std::vector<Decision> c; s.next(&c); ++executions) {
      ASSERT_LT(executions, 1000) << "seed " << seed << ": no local minimum";
      GuidedStrategy guided(c);
      guided.next_execution();
      if (!ex.run(guided).hit) continue;
      const std::size_t n = preemptions(ex);
      const std::vector<Decision> ran = decisions_of(ex);
      if (n < fewest || (n == fewest && switches(ran) < switches(best))) {
        fewest = n;
        best = ran;
        s.improved(best);
      }
    }
    // The schedule kept still shows the bug, with as many preemptions as recorded.
    GuidedStrategy again(best);
    again.next_execution();
    EXPECT_TRUE(ex.run(again).hit) << "seed " << seed;
    EXPECT_EQ(preemptions(ex), fewest) << "seed " << seed;
    EXPECT_GE(fewest, 1u) << "no schedule without a preemption loses the update";
    simplified += fewest == 1;
  }
  EXPECT_EQ(simplified, 20);
  EXPECT_GE(needless, 10) << "the walks' finds should need simplifying";
}

}  // namespace
}  // namespace weft
