// Iterative delay bounding (Emmi, Qadeer, Rakamaric, POPL'11) over the non-preemptive
// round-robin scheduler: exactly the executions with at most d delays, each once, in
// order of delays; counts by brute force; each seeded bug at exactly its least number of
// delays; and, unbounded, exactly dfs's executions.
#include "strategy/delay_bound.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "bounding_util.hpp"
#include "strategy/dfs.hpp"
#include "strategy/registry.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

using model::ObjectId;
using model::Program;
using test::Measured;

std::set<std::string> schedules_of(const std::vector<Measured>& runs,
                                   std::uint64_t max_delays = ~std::uint64_t{0}) {
  std::set<std::string> s;
  for (const Measured& m : runs)
    if (m.delays <= max_delays) s.insert(m.schedule);
  return s;
}

bool nondecreasing_delays(const std::vector<Measured>& runs) {
  return std::is_sorted(runs.begin(), runs.end(),
                        [](const Measured& a, const Measured& b) { return a.delays < b.delays; });
}

TEST(DelayBound, ADelayIsAStepAlongTheRoundRobinOrder) {
  const ThreadId enabled[] = {0, 2, 3, 5};
  SchedulingPoint p;
  p.enabled = enabled;
  p.thread_count = 6;
  // Before the first step: thread 0 is the default, then 2, 3, 5.
  EXPECT_EQ(delay_cost(p, 0), 0u);
  EXPECT_EQ(delay_cost(p, 3), 2u);
  EXPECT_EQ(delay_cost(p, 5), 3u);
  // 3 may continue: 3 costs nothing, 5 one delay, 0 two (round the end), 2 three.
  p.current = 3;
  p.current_enabled = true;
  EXPECT_EQ(delay_cost(p, 3), 0u);
  EXPECT_EQ(delay_cost(p, 5), 1u);
  EXPECT_EQ(delay_cost(p, 0), 2u);
  EXPECT_EQ(delay_cost(p, 2), 3u);
  // 4 blocked or ended: its successor 5 is the default, and skipping it is a delay
  // (unlike a preemption, which a blocked thread does not count).
  p.current = 4;
  p.current_enabled = false;
  EXPECT_EQ(delay_cost(p, 5), 0u);
  EXPECT_EQ(delay_cost(p, 0), 1u);
  EXPECT_EQ(delay_cost(p, 3), 3u);
  for (ThreadId t : enabled) EXPECT_EQ(delay_cost(p, t), test::round_robin_delays(p, t));
}

TEST(DelayBound, RunsExactlyTheExecutionsWithinEachBound) {
  // Cumulative counts by bound d = 0..3, by brute force over all interleavings (fixed
  // here): the default schedule alone at d = 0.
  const std::uint64_t expected[][3][4] = {
      // n = 2: k = 2, 3, 4
      {{1, 3, 5, 6}, {1, 4, 10, 16}, {1, 5, 17, 35}},
      // n = 3
      {{1, 5, 15, 30}, {1, 7, 31, 88}, {1, 9, 53, 195}},
  };
  for (std::uint64_t n : {2u, 3u}) {
    for (std::uint64_t k : {2u, 3u, 4u}) {
      const Program p = model::independent_threads(n, k);
      const std::vector<Measured> all = test::interleavings(n, k);
      for (std::uint64_t d : {0u, 1u, 2u, 3u}) {
        SCOPED_TRACE(std::to_string(n) + "x" + std::to_string(k) + ", db:" + std::to_string(d));
        const std::uint64_t brute = schedules_of(all, d).size();
        EXPECT_EQ(brute, expected[n - 2][k - 2][d]);

        DelayBoundStrategy db(d);
        const std::vector<Measured> runs = test::measure(db, p);
        EXPECT_EQ(runs.size(), brute);
        EXPECT_EQ(schedules_of(runs).size(), runs.size());  // all distinct
        EXPECT_EQ(schedules_of(runs), schedules_of(all, d));
        EXPECT_TRUE(nondecreasing_delays(runs));

        const Coverage cov = db.coverage();
        EXPECT_EQ(cov.kind, CoverageKind::kDelayBound);
        EXPECT_TRUE(cov.complete);
        EXPECT_EQ(cov.bound, static_cast<std::int64_t>(d));
        EXPECT_EQ(cov.executions, brute);
        std::uint64_t most = 0;
        for (const Measured& m : all) most = std::max(most, m.delays);
        EXPECT_EQ(cov.summary, "db: " + std::string(brute == 1 ? "the " : "all ") +
                                   std::to_string(brute) +
                                   (brute == 1 ? " execution" : " executions") + " with at most " +
                                   std::to_string(d) + (d == 1 ? " delay" : " delays") +
                                   " explored" +
                                   (d >= most ? ": every schedule, none needs more than " +
                                                    std::to_string(most)
                                              : ""));
        EXPECT_EQ(d >= most, n == 2 && k == 2 && d == 3);
      }
    }
  }
}

TEST(DelayBound, UnboundedRunsDfsExecutionsBoundByBound) {
  std::vector<std::pair<std::string, Program>> programs;
  programs.emplace_back("3x3 independent", model::independent_threads(3, 3));
  {
    Program p;
    const ObjectId m = p.mutex("m"), y = p.variable("y");
    for (const char* name : {"A", "B", "C"}) {
      const ObjectId x = p.variable(std::string("x") + name);
      p.thread(name).write(x, 1).lock(m).write(y, 1).unlock(m);
    }
    programs.emplace_back("locked critical sections", std::move(p));
  }
  {
    Program p = model::independent_threads(2, 2);
    p.thread("C").choose(3, 0).choose(2, 1);
    programs.emplace_back("data choices", std::move(p));
  }
  programs.emplace_back("POS example with main", model::pos_running_example(true));

  for (const auto& [name, p] : programs) {
    SCOPED_TRACE(name);
    DfsStrategy dfs;
    const std::vector<Measured> every = test::measure(dfs, p);
    DelayBoundStrategy db;
    const std::vector<Measured> runs = test::measure(db, p);
    EXPECT_EQ(runs.size(), every.size());
    EXPECT_EQ(schedules_of(runs).size(), runs.size());
    EXPECT_EQ(schedules_of(runs), schedules_of(every));
    EXPECT_TRUE(nondecreasing_delays(runs));
    std::uint64_t most = 0;
    for (const Measured& m : every) most = std::max(most, m.delays);
    EXPECT_EQ(db.max_cost(), most);
    for (std::uint64_t d = 0; d <= most; d += 2) {
      DelayBoundStrategy bounded(d);
      EXPECT_EQ(schedules_of(test::measure(bounded, p)), schedules_of(every, d)) << "db:" << d;
    }
    EXPECT_TRUE(db.coverage().complete);
    EXPECT_EQ(db.coverage().bound, static_cast<std::int64_t>(most));
  }
}

TEST(DelayBound, FindsEachSeededBugAtExactlyItsLeastDelays) {
  for (const test::SeededBug& bug : test::seeded_bugs()) {
    SCOPED_TRACE(bug.name);
    DfsStrategy dfs;
    const std::vector<Measured> every = test::measure(dfs, bug.program);
    std::uint64_t least = ~std::uint64_t{0}, below = 0;
    for (const Measured& m : every)
      if (m.hit) least = std::min(least, m.delays);
    for (const Measured& m : every) below += m.delays < least;
    ASSERT_EQ(least, bug.delays);

    DelayBoundStrategy short_by_one(least - 1);  // every seeded bug needs a delay
    const std::vector<Measured> clean = test::measure(short_by_one, bug.program);
    EXPECT_EQ(clean.size(), below);
    EXPECT_TRUE(std::none_of(clean.begin(), clean.end(), [](const Measured& m) { return m.hit; }));

    for (std::uint64_t limit : {BoundedSearch::kUnbounded, least}) {
      DelayBoundStrategy db(limit);
      const std::vector<Measured> runs = test::measure(db, bug.program);
      const auto first = std::find_if(runs.begin(), runs.end(), [](const Measured& m) { return m.hit; });
      ASSERT_NE(first, runs.end());
      EXPECT_EQ(first->delays, least);
      EXPECT_GE(static_cast<std::uint64_t>(first - runs.begin()), below);
    }
  }
}

TEST(DelayBound, ABoundTheProgramDoesNotNeedCompletesAndSaysSo) {
  DelayBoundStrategy db(7);
  const model::RunResult r = model::run(db, model::independent_threads(2, 2), 0);
  EXPECT_EQ(r.executions, 6u);
  EXPECT_TRUE(r.coverage.complete);
  EXPECT_EQ(r.coverage.bound, 7);
  EXPECT_EQ(r.coverage.summary,
            "db: all 6 executions with at most 7 delays explored: every schedule, none needs "
            "more than 3");
}

TEST(DelayBound, ABudgetThatEndsMidBoundSaysHowFarTheNextGot) {
  // 3 threads of 3 steps: 1 execution with no delay, 6 with one, 24 with two.
  DelayBoundStrategy db;
  model::run(db, model::independent_threads(3, 3), 10);
  const Coverage c = db.coverage();
  EXPECT_TRUE(c.complete);
  EXPECT_EQ(c.bound, 1);
  EXPECT_EQ(c.executions, 7u);
  EXPECT_EQ(c.exploring_bound, 2);
  EXPECT_EQ(c.exploring_executions, 3u);
  EXPECT_EQ(c.summary,
            "db: all 7 executions with at most 1 delay explored; bound 2 under way: 3 "
            "executions run, " +
                std::to_string(db.progress().exploring_pending) + " known still to run");
}

TEST(DelayBound, Registry) {
  std::string error;
  auto unbounded = make_strategy("db", 0, &error);
  ASSERT_NE(unbounded, nullptr) << error;
  EXPECT_EQ(dynamic_cast<DelayBoundStrategy&>(*unbounded).limit(), BoundedSearch::kUnbounded);
  auto two = make_strategy("db:2", 0, &error);
  ASSERT_NE(two, nullptr) << error;
  EXPECT_EQ(dynamic_cast<DelayBoundStrategy&>(*two).limit(), 2u);
  for (const char* bad : {"db:x", "db:-1", "db:", "db:2.5", "db:1000001"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(make_strategy(bad, 0, &error), nullptr);
    EXPECT_EQ(error, "db: the delay bound d must be an integer from 0 to 1000000, got \"" +
                         std::string(bad).substr(3) + "\" (usage: db[:<d>])");
  }
}

}  // namespace
}  // namespace weft
