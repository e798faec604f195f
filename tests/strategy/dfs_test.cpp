// Exhaustive DFS: exactly the feasible schedules, each once, then a full-coverage claim.
#include "strategy/dfs.hpp"

#include <gtest/gtest.h>

#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

using model::ObjectId;
using model::Program;
using model::RunResult;
using model::State;
using model::ThreadIndex;

// (n*k)! / (k!)^n: the interleavings of n threads of k steps each.
std::uint64_t interleavings(std::uint64_t n, std::uint64_t k) {
  // Product of binomials C(i*k, k) for i = 1..n, computed exactly.
  std::uint64_t total = 1;
  for (std::uint64_t i = 1; i <= n; ++i) {
    std::uint64_t c = 1;
    for (std::uint64_t j = 1; j <= k; ++j) c = c * ((i - 1) * k + j) / j;
    total *= c;
  }
  return total;
}

RunResult explore(const Program& p) {
  DfsStrategy dfs;
  return model::run(dfs, p, 0);
}

void expect_complete(const RunResult& r, std::uint64_t executions) {
  EXPECT_EQ(r.executions, executions);
  EXPECT_EQ(r.distinct_schedules, executions);  // all distinct
  EXPECT_TRUE(r.exhausted);
  EXPECT_EQ(r.violations, 0u) << r.violation;
  EXPECT_EQ(r.coverage.kind, CoverageKind::kFull);
  EXPECT_TRUE(r.coverage.complete);
  EXPECT_EQ(r.coverage.executions, executions);
  EXPECT_EQ(r.coverage.summary, "dfs: all " + std::to_string(executions) + " schedules explored");
}

TEST(Dfs, IndependentThreadsGiveExactlyTheMultinomialCount) {
  const std::pair<int, int> shapes[] = {{1, 5}, {2, 1}, {2, 2}, {2, 3}, {3, 1},
                                        {3, 2}, {2, 5}, {4, 2}, {3, 3}};
  for (auto [n, k] : shapes) {
    SCOPED_TRACE(std::to_string(n) + " threads x " + std::to_string(k) + " ops");
    expect_complete(explore(model::independent_threads(n, k)), interleavings(n, k));
  }
  EXPECT_EQ(interleavings(3, 3), 1680u);
  EXPECT_EQ(interleavings(4, 2), 2520u);
}

TEST(Dfs, LockedCriticalSectionsDoNotInterleave) {
  // Each thread: write(own x); lock(m); write(y); unlock(m).
  // Hand count: the two critical sections [lock..unlock] run one after the other (2 ways).
  // With A's first: a0 a1 a2 a3 b1 b2 b3 is fixed and B's own write b0 goes anywhere
  // before b1: 5 places. Symmetrically 5 with B's first. 10 schedules.
  Program p;
  const ObjectId m = p.mutex("m");
  const ObjectId y = p.variable("y");
  for (const char* name : {"A", "B"}) {
    const ObjectId x = p.variable(std::string("x") + name);
    p.thread(name).write(x, 1).lock(m).write(y, 1).unlock(m);
  }
  expect_complete(explore(p), 10);
}

TEST(Dfs, ThreeLockersGiveTheOrdersOfTheirCriticalSections) {
  // Each thread: lock(m); unlock(m). Every other thread is blocked while one holds m, so a
  // schedule is an order of the three critical sections: 3! = 6.
  Program p;
  const ObjectId m = p.mutex("m");
  for (const char* name : {"A", "B", "C"}) p.thread(name).lock(m).unlock(m);
  expect_complete(explore(p), 6);
}

TEST(Dfs, LockOrderInversionHasTwoDeadlocksAmongSixSchedules) {
  // A: lock(m1) lock(m2) unlock(m2) unlock(m1); B the same with m2 and m1 swapped.
  // Hand count, A first (a1): then b1 deadlocks (A wants m2, B wants m1); or a2, after
  // which only A can go (a3), then either a4 (B runs alone after: a1a2a3a4 b1b2b3b4) or
  // b1 (m2 is free; then only a4, then B: a1a2a3 b1 a4 b2b3b4). 3 schedules, one a
  // deadlock; the same with B first: 6 schedules, 2 deadlocks.
  Program p;
  const ObjectId m1 = p.mutex("m1");
  const ObjectId m2 = p.mutex("m2");
  p.thread("A").lock(m1).lock(m2).unlock(m2).unlock(m1);
  p.thread("B").lock(m2).lock(m1).unlock(m1).unlock(m2);
  const RunResult r = explore(p);
  expect_complete(r, 6);
  EXPECT_EQ(r.deadlocks, 2u);
  EXPECT_EQ(r.hits, 2u);
}

TEST(Dfs, ValueChoicesMultiplyTheSchedules) {
  // A: choose(2); choose(3); B: one write. A's two steps and B's one interleave in
  // C(3,1) = 3 ways, and every interleaving takes every pair of values: 3 * 2 * 3 = 18.
  Program p;
  const ObjectId x = p.variable("x");
  p.thread("A").choose(2, 0).choose(3, 1);
  p.thread("B").write(x, 1);
  expect_complete(explore(p), 18);

  // Two threads of two writes and a third whose one step is a 4-way choice: 5!/(2!2!1!)
  // = 30 interleavings, times 4 values.
  Program q = model::independent_threads(2, 2);
  q.thread("C").choose(4, 0);
  expect_complete(explore(q), 30 * 4);
}

TEST(Dfs, FindsThePosExampleBugInExactlyOneOfItsSchedules) {
  // A's 4 steps and B's 6 interleave in C(10,4) = 210 ways; B4 waits for A3, which rules
  // out those where B's 4th step comes before A's 3rd: lattice paths reaching B=4 with
  // A <= 2, sum over a = 0..2 of C(a+3, 3) * C(6-a, 2) = 15 + 40 + 60 = 115. 95 remain.
  const Program p = model::pos_running_example();
  DfsStrategy dfs;
  model::Executor ex(p);
  int executions = 0, hits = 0;
  while (dfs.next_execution()) {
    ++executions;
    const model::ExecutionResult e = ex.run(dfs);
    if (e.hit) {
      ++hits;
      EXPECT_EQ(ex.order(), model::kPosBugOrder);
      EXPECT_EQ(e.message, "A4: assert(!(a1 == 1 && a2 == 1 && a4 == 1))");
    }
  }
  EXPECT_EQ(executions, 95);
  EXPECT_EQ(hits, 1);
  EXPECT_TRUE(dfs.coverage().complete);
}

TEST(Dfs, FindsALostUpdate) {
  // Both threads read x, then write back what they read + 1. Of the C(4,2) = 6 schedules,
  // the 4 where both reads come before both writes lose an update.
  Program p;
  const ObjectId x = p.variable("x");
  for (const char* name : {"A", "B"})
    p.thread(name).read(x, 0).access(OpKind::Write, x, [x](State& s, ThreadIndex self) {
      s[x] = s.reg(self, 0) + 1;
    });
  p.expect_final([x](const State& s) { return s[x] == 2; }, "x == 2");
  const RunResult r = explore(p);
  expect_complete(r, 6);
  EXPECT_EQ(r.hits, 4u);
  EXPECT_EQ(r.first_hit, 1);  // the default (serial) schedule first, then a preemption
}

TEST(Dfs, PeakNodesAliveStayFarBelowTheExecutions) {
  // GAMBIT Figure 5: nodes free themselves as their subtrees finish, so memory follows
  // the depth of the search, not the number of executions.
  DfsStrategy dfs;
  const RunResult r = model::run(dfs, model::independent_threads(3, 4), 0);
  expect_complete(r, interleavings(3, 4));  // 34650
  const ExecutionTree::Stats& st = dfs.tree().stats();
  EXPECT_EQ(st.nodes_created, r.executions);
  EXPECT_EQ(st.nodes_alive, 0u);
  EXPECT_LT(st.peak_alive * 500, r.executions) << "peak alive " << st.peak_alive;
}

TEST(Dfs, StopsWhenAskedAndSaysWhatIsLeft) {
  DfsStrategy dfs;
  const RunResult r = model::run(dfs, model::independent_threads(3, 3), 100);
  EXPECT_EQ(r.executions, 100u);
  EXPECT_FALSE(r.exhausted);
  EXPECT_FALSE(r.coverage.complete);
  EXPECT_NE(r.coverage.summary.find("dfs: 100 executions, "), std::string::npos)
      << r.coverage.summary;
  // Going on from there finishes the same space.
  const RunResult rest = model::run(dfs, model::independent_threads(3, 3), 0);
  EXPECT_EQ(r.executions + rest.executions, 1680u);
  EXPECT_TRUE(rest.coverage.complete);
  EXPECT_FALSE(dfs.next_execution());
}

}  // namespace
}  // namespace weft
