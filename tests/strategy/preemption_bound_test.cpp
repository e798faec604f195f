// Iterative preemption bounding (ICB, PLDI'07, Algorithm 1): exactly the executions with
// at most c preemptions, each once, all of bound c before any of bound c + 1; the counts
// of the closed formula and of brute-force enumeration; each seeded bug at exactly its
// least number of preemptions; and, unbounded, exactly dfs's executions.
#include "strategy/preemption_bound.hpp"

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
                                   std::uint64_t max_preemptions = ~std::uint64_t{0}) {
  std::set<std::string> s;
  for (const Measured& m : runs)
    if (m.preemptions <= max_preemptions) s.insert(m.schedule);
  return s;
}

bool nondecreasing_preemptions(const std::vector<Measured>& runs) {
  return std::is_sorted(runs.begin(), runs.end(), [](const Measured& a, const Measured& b) {
    return a.preemptions < b.preemptions;
  });
}

TEST(PreemptionBound, TheClosedCountAgreesWithBruteForceAndStaysUnderTheorem1) {
  // Executions with exactly c preemptions, n threads of k steps, by brute force.
  for (std::uint64_t n : {2u, 3u}) {
    for (std::uint64_t k : {1u, 2u, 3u, 4u}) {
      std::map<std::uint64_t, std::uint64_t> by_count;
      for (const Measured& m : test::interleavings(n, k)) ++by_count[m.preemptions];
      for (std::uint64_t c = 0; c <= n * k; ++c) {
        SCOPED_TRACE(std::to_string(n) + "x" + std::to_string(k) + ", c=" + std::to_string(c));
        const std::uint64_t exact = test::executions_with_preemptions(n, k, c);
        EXPECT_EQ(exact, by_count.count(c) ? by_count[c] : 0);
        EXPECT_LE(exact, test::theorem1_bound(n, k, c));
      }
    }
  }
  // The counts themselves, c = 0, 1, 2, ...
  auto row = [](std::uint64_t n, std::uint64_t k) {
    std::vector<std::uint64_t> v;
    for (std::uint64_t c = 0; c < 12; ++c) v.push_back(test::executions_with_preemptions(n, k, c));
    while (!v.empty() && v.back() == 0) v.pop_back();
    return v;
  };
  EXPECT_EQ(row(2, 2), (std::vector<std::uint64_t>{2, 2, 2}));
  EXPECT_EQ(row(2, 3), (std::vector<std::uint64_t>{2, 4, 8, 4, 2}));
  EXPECT_EQ(row(2, 4), (std::vector<std::uint64_t>{2, 6, 18, 18, 18, 6, 2}));
  EXPECT_EQ(row(3, 2), (std::vector<std::uint64_t>{6, 18, 36, 30}));
  EXPECT_EQ(row(3, 3), (std::vector<std::uint64_t>{6, 36, 150, 360, 510, 444, 174}));
  EXPECT_EQ(row(3, 4),
            (std::vector<std::uint64_t>{6, 54, 342, 1350, 3618, 6894, 9036, 7938, 4320, 1092}));
  // Theorem 1 is tight at c = 0 (n! serial orders), loose after: 3x4, c = 2: 342 of 7920.
  EXPECT_EQ(test::theorem1_bound(3, 4, 0), 6u);
  EXPECT_EQ(test::theorem1_bound(3, 4, 2), 7920u);
}

TEST(PreemptionBound, RunsExactlyTheExecutionsWithinEachBound) {
  // pb:c on n threads of k steps: every interleaving with at most c preemptions, once
  // each, in order of preemptions; then complete, with the count the formula gives.
  const std::uint64_t expected[][3][3] = {
      // n = 2: k = 2, 3, 4; c = 0, 1, 2 (cumulative)
      {{2, 4, 6}, {2, 6, 14}, {2, 8, 26}},
      // n = 3
      {{6, 24, 60}, {6, 42, 192}, {6, 60, 402}},
  };
  for (std::uint64_t n : {2u, 3u}) {
    for (std::uint64_t k : {2u, 3u, 4u}) {
      const Program p = model::independent_threads(n, k);
      const std::vector<Measured> all = test::interleavings(n, k);
      for (std::uint64_t c : {0u, 1u, 2u}) {
        SCOPED_TRACE(std::to_string(n) + "x" + std::to_string(k) + ", pb:" + std::to_string(c));
        std::uint64_t formula = 0;
        for (std::uint64_t i = 0; i <= c; ++i) formula += test::executions_with_preemptions(n, k, i);
        EXPECT_EQ(formula, expected[n - 2][k - 2][c]);

        PreemptionBoundStrategy pb(c);
        const std::vector<Measured> runs = test::measure(pb, p);
        EXPECT_EQ(runs.size(), formula);
        EXPECT_EQ(schedules_of(runs).size(), runs.size());  // all distinct
        EXPECT_EQ(schedules_of(runs), schedules_of(all, c));
        EXPECT_TRUE(nondecreasing_preemptions(runs));
        EXPECT_TRUE(pb.exhausted());

        const Coverage cov = pb.coverage();
        EXPECT_EQ(cov.kind, CoverageKind::kPreemptionBound);
        EXPECT_TRUE(cov.complete);
        EXPECT_EQ(cov.bound, static_cast<std::int64_t>(c));
        EXPECT_EQ(cov.executions, formula);
        EXPECT_EQ(cov.exploring_bound, -1);
        // When the bound leaves nothing out, the summary says so.
        std::uint64_t most = 0;
        for (const Measured& m : all) most = std::max(most, m.preemptions);
        EXPECT_EQ(cov.summary, "pb: all " + std::to_string(formula) + " executions with at most " +
                                   std::to_string(c) + (c == 1 ? " preemption" : " preemptions") +
                                   " explored" +
                                   (c >= most ? ": every schedule, none needs more than " +
                                                    std::to_string(most)
                                              : ""));
        EXPECT_EQ(c >= most, n == 2 && k == 2 && c == 2);
      }
    }
  }
}

TEST(PreemptionBound, UnboundedRunsDfsExecutionsBoundByBound) {
  // Without a bound: every schedule dfs runs, once, in order of preemptions; so the union
  // over the bounds is dfs's set. Programs with blocking (a free switch), deadlocks, data
  // choices and spawned threads, besides independent threads.
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
    Program p;
    const ObjectId m1 = p.mutex("m1"), m2 = p.mutex("m2");
    p.thread("A").lock(m1).lock(m2).unlock(m2).unlock(m1);
    p.thread("B").lock(m2).lock(m1).unlock(m1).unlock(m2);
    programs.emplace_back("lock order inversion", std::move(p));
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
    PreemptionBoundStrategy pb;
    const std::vector<Measured> runs = test::measure(pb, p);
    EXPECT_EQ(runs.size(), every.size());
    EXPECT_EQ(schedules_of(runs).size(), runs.size());
    EXPECT_EQ(schedules_of(runs), schedules_of(every));
    EXPECT_TRUE(nondecreasing_preemptions(runs));
    std::uint64_t most = 0;
    for (const Measured& m : every) most = std::max(most, m.preemptions);
    EXPECT_EQ(pb.max_cost(), most);

    // And each bound alone is dfs's executions with at most that many.
    for (std::uint64_t c = 0; c <= most; ++c) {
      PreemptionBoundStrategy bounded(c);
      EXPECT_EQ(schedules_of(test::measure(bounded, p)), schedules_of(every, c)) << "pb:" << c;
    }
    const Coverage cov = pb.coverage();
    EXPECT_TRUE(cov.complete);
    EXPECT_EQ(cov.bound, static_cast<std::int64_t>(most));
    EXPECT_EQ(cov.executions, every.size());
    EXPECT_EQ(cov.summary, "pb: all " + std::to_string(every.size()) +
                               " executions explored: every schedule, none with more than " +
                               std::to_string(most) + (most == 1 ? " preemption" : " preemptions"));
  }
}

TEST(PreemptionBound, FindsEachSeededBugAtExactlyItsLeastPreemptions) {
  for (const test::SeededBug& bug : test::seeded_bugs()) {
    SCOPED_TRACE(bug.name);
    // The least, by brute force.
    DfsStrategy dfs;
    const std::vector<Measured> every = test::measure(dfs, bug.program);
    std::uint64_t least = ~std::uint64_t{0}, below = 0;
    for (const Measured& m : every)
      if (m.hit) least = std::min(least, m.preemptions);
    for (const Measured& m : every) below += m.preemptions < least;
    ASSERT_EQ(least, bug.preemptions);

    // A bound one short explores everything it may and finds nothing.
    if (least > 0) {
      PreemptionBoundStrategy short_by_one(least - 1);
      const std::vector<Measured> runs = test::measure(short_by_one, bug.program);
      EXPECT_EQ(runs.size(), below);
      EXPECT_TRUE(std::none_of(runs.begin(), runs.end(), [](const Measured& m) { return m.hit; }));
      EXPECT_TRUE(short_by_one.coverage().complete);
    }
    // Unbounded, and bounded at exactly the least: the first hit has that many, after
    // every execution with fewer.
    for (std::uint64_t limit : {BoundedSearch::kUnbounded, least}) {
      PreemptionBoundStrategy pb(limit);
      const std::vector<Measured> runs = test::measure(pb, bug.program);
      const auto first = std::find_if(runs.begin(), runs.end(), [](const Measured& m) { return m.hit; });
      ASSERT_NE(first, runs.end());
      EXPECT_EQ(first->preemptions, least);
      EXPECT_GE(static_cast<std::uint64_t>(first - runs.begin()), below);
    }
  }
}

TEST(PreemptionBound, ABoundTheProgramDoesNotNeedCompletesAndSaysSo) {
  PreemptionBoundStrategy pb(10);
  const model::RunResult r = model::run(pb, model::independent_threads(2, 2), 0);
  EXPECT_EQ(r.executions, 6u);
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.coverage.kind, CoverageKind::kPreemptionBound);
  EXPECT_TRUE(r.coverage.complete);
  EXPECT_EQ(r.coverage.bound, 10);
  EXPECT_EQ(r.coverage.executions, 6u);
  EXPECT_EQ(r.coverage.summary,
            "pb: all 6 executions with at most 10 preemptions explored: every schedule, none "
            "needs more than 2");

  // A program with one schedule.
  PreemptionBoundStrategy one(0);
  const model::RunResult single = model::run(one, model::independent_threads(1, 3), 0);
  EXPECT_EQ(single.executions, 1u);
  EXPECT_EQ(single.coverage.summary,
            "pb: the 1 execution with at most 0 preemptions explored: every schedule, none "
            "needs more than 0");
}

TEST(PreemptionBound, ABudgetThatEndsMidBoundSaysHowFarTheNextGot) {
  // 3 threads of 3 steps: 6 executions with no preemption, 36 with one, 150 with two.
  const Program p = model::independent_threads(3, 3);
  PreemptionBoundStrategy pb;
  model::run(pb, p, 3);
  Coverage c = pb.coverage();
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.bound, -1);
  EXPECT_EQ(c.executions, 3u);
  EXPECT_EQ(c.exploring_bound, 0);
  EXPECT_EQ(c.exploring_executions, 3u);
  EXPECT_EQ(c.exploring_bound, 0);
  // Known: the frontier's entries of that cost; more turn up as the bound goes on.
  EXPECT_EQ(c.summary, "pb: bound 0 under way: 3 executions run, 2 known still to run");

  model::run(pb, p, 3);  // 6: bound 0 done
  c = pb.coverage();
  EXPECT_TRUE(c.complete);
  EXPECT_EQ(c.bound, 0);
  EXPECT_EQ(c.executions, 6u);
  EXPECT_EQ(c.exploring_bound, 1);
  EXPECT_EQ(c.exploring_executions, 0u);
  EXPECT_EQ(c.summary,
            "pb: all 6 executions with at most 0 preemptions explored; bound 1 under way: "
            "0 executions run, 24 known still to run");

  model::run(pb, p, 44);  // 50: bound 1 done (42), 8 of bound 2
  c = pb.coverage();
  EXPECT_TRUE(c.complete);
  EXPECT_EQ(c.bound, 1);
  EXPECT_EQ(c.executions, 42u);
  EXPECT_EQ(c.exploring_bound, 2);
  EXPECT_EQ(c.exploring_executions, 8u);
  const BoundProgress progress = pb.progress();
  EXPECT_EQ(progress.complete_bound, 1);
  EXPECT_EQ(progress.complete_executions, 42u);
  EXPECT_EQ(progress.exploring_bound, 2);
  EXPECT_EQ(progress.exploring_executions, 8u);
  EXPECT_EQ(progress.executions, 50u);
  EXPECT_EQ(c.summary,
            "pb: all 42 executions with at most 1 preemption explored; bound 2 under way: "
            "8 executions run, " +
                std::to_string(progress.exploring_pending) + " known still to run");

  // Going on finishes the same space.
  const model::RunResult rest = model::run(pb, p, 0);
  EXPECT_EQ(50 + rest.executions, 1680u);
  EXPECT_TRUE(pb.coverage().complete);
  EXPECT_EQ(pb.coverage().bound, 6);
  EXPECT_FALSE(pb.next_execution());
}

TEST(PreemptionBound, MemoryFollowsTheFrontierNotTheExecutions) {
  // Nodes free themselves as their subtrees finish (GAMBIT 3.2). What stays alive is the
  // frontier and its ancestors: within a bound the search is depth-first and holds as
  // little as dfs; the entries of the next bound (ICB's nextWorkQueue) wait there.
  {
    // 7 threads of one step: 5040 executions, none with a preemption. One bound: dfs.
    PreemptionBoundStrategy pb;
    const model::RunResult r = model::run(pb, model::independent_threads(7, 1), 0);
    EXPECT_EQ(r.executions, 5040u);
    EXPECT_EQ(pb.max_cost(), 0u);
    const ExecutionTree::Stats& st = pb.tree().stats();
    EXPECT_EQ(st.nodes_created, r.executions);
    EXPECT_EQ(st.nodes_alive, 0u);
    EXPECT_LT(st.peak_alive * 100, r.executions) << "peak alive " << st.peak_alive;
  }
  {
    // 3 threads of 4 steps: 34650 executions over bounds 0..9; the largest bound (6) has
    // 9036 executions, and its entries wait in the frontier while bound 5 runs.
    PreemptionBoundStrategy pb;
    const model::RunResult r = model::run(pb, model::independent_threads(3, 4), 0);
    EXPECT_EQ(r.executions, 34650u);
    const ExecutionTree::Stats& st = pb.tree().stats();
    EXPECT_EQ(st.nodes_created, r.executions);
    EXPECT_EQ(st.nodes_alive, 0u);
    EXPECT_LT(st.peak_alive * 2, r.executions) << "peak alive " << st.peak_alive;
  }
}

TEST(PreemptionBound, AProgramThatDoesNotReplayGetsNoClaim) {
  // A thread whose second step depends on a counter that survives executions: the
  // schedule replays differently, and the tree notices.
  Program p;
  const ObjectId x = p.variable("x");
  p.thread("A").write(x, 1).write(x, 2);
  p.thread("B").write(x, 3);
  PreemptionBoundStrategy pb;
  model::Executor ex(p);
  ASSERT_TRUE(pb.next_execution());
  ex.run(pb);
  // Replay the next execution on another program (B has two steps now): not the same.
  Program q;
  const ObjectId y = q.variable("y");
  q.thread("A").write(y, 1);
  q.thread("B").write(y, 2).write(y, 3);
  model::Executor other(q);
  while (pb.next_execution()) other.run(pb);
  const Coverage c = pb.coverage();
  EXPECT_FALSE(pb.nondeterminism().empty());
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.bound, -1);
  // Precisely where it diverged (CHESS 4.2), and no claim.
  EXPECT_EQ(c.nondeterminism, pb.nondeterminism());
  EXPECT_EQ(c.summary.rfind("pb: ", 0), 0u) << c.summary;
  EXPECT_NE(c.summary.find(", but not reproducible: execution "), std::string::npos) << c.summary;
  EXPECT_NE(c.summary.find("the program does not behave the same under the same schedule: no coverage claim"),
            std::string::npos) << c.summary;
}

TEST(PreemptionBound, AnExecutionThatNeverEndedGetsNoClaim) {
  PreemptionBoundStrategy pb;
  const Program p = model::independent_threads(2, 2);
  ASSERT_TRUE(pb.next_execution());  // never run: its branches are never known
  model::run(pb, p, 0);
  const Coverage c = pb.coverage();
  EXPECT_FALSE(c.complete);
  EXPECT_EQ(c.summary, "pb: 1 execution, but execution 1 never reported its end: no coverage claim");
}

TEST(PreemptionBound, Registry) {
  std::string error;
  auto unbounded = make_strategy("pb", 0, &error);
  ASSERT_NE(unbounded, nullptr) << error;
  EXPECT_EQ(dynamic_cast<PreemptionBoundStrategy&>(*unbounded).limit(), BoundedSearch::kUnbounded);
  for (std::uint64_t c : {0u, 1u, 2u, 1000000u}) {
    auto s = make_strategy("pb:" + std::to_string(c), 0, &error);
    ASSERT_NE(s, nullptr) << error;
    EXPECT_EQ(dynamic_cast<PreemptionBoundStrategy&>(*s).limit(), c);
  }
  for (const char* bad : {"pb:-1", "pb:", "pb:x", "pb:1000001", "pb:1:2", "pb: 1"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(make_strategy(bad, 0, &error), nullptr);
    EXPECT_EQ(error, "pb: the preemption bound c must be an integer from 0 to 1000000, got \"" +
                         std::string(bad).substr(3) + "\" (usage: pb[:<c>])");
  }
  bool listed = false;
  for (const StrategyInfo& info : strategy_list())
    if (info.name == "pb") {
      listed = true;
      EXPECT_EQ(info.usage, "pb[:<c>]");
      EXPECT_NE(info.description.find("PLDI'07"), std::string_view::npos);
    }
  EXPECT_TRUE(listed);
}

}  // namespace
}  // namespace weft
