// The execution tree (GAMBIT 3.2): deltas from a default execution, branches that hang
// from the right ancestor, a frontier ordered by priority then depth-first, nodes that
// free themselves, and replay that notices a program that does not reproduce.
#include "strategy/execution_tree.hpp"

#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "strategy/dfs.hpp"
#include "strategy/tree_strategy.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace weft {
namespace {

using model::Executor;
using model::Program;

// A tree strategy whose backtrack generator is a test's lambda.
class HookedTree final : public TreeStrategy {
 public:
  using Hook = std::function<void(ExecutionTree&)>;
  HookedTree(ExecutionTree::Options options, Hook hook)
      : TreeStrategy(options), hook_(std::move(hook)) {}
  Coverage coverage() const override { return {}; }

 private:
  void expand(const Trace&) override { hook_(tree_); }
  Hook hook_;
};

// The thread decisions of an execution as a string: "0110".
std::string threads_run(const Executor& ex) {
  std::string s;
  for (const Decision& d : ex.decisions())
    if (d.kind == Decision::kThread) s += static_cast<char>('0' + d.value);
  return s;
}

// Every execution's thread decisions, in the order the strategy ran them.
std::vector<std::string> all_executions(Strategy& s, const Program& p, int max = 1000) {
  std::vector<std::string> out;
  Executor ex(p);
  while (max-- > 0 && s.next_execution()) {
    ex.run(s);
    out.push_back(threads_run(ex));
  }
  return out;
}

TEST(ExecutionTree, DfsVisitsDeepestDecisionFirstSmallestThreadFirst) {
  // Two threads of two steps. Root: the default (0 runs to its end, then 1). Then the
  // branch at decision 1 before the one at decision 0, and each branch's own subtree
  // before its siblings.
  DfsStrategy dfs;
  EXPECT_EQ(all_executions(dfs, model::independent_threads(2, 2)),
            (std::vector<std::string>{"0011", "0110", "0101", "1100", "1001", "1010"}));
}

TEST(ExecutionTree, BranchRefusesTheExecutionItselfAndImpossibleChoices) {
  std::vector<bool> results;
  HookedTree s({}, [&](ExecutionTree& t) {
    if (t.stats().executions != 1) return;
    // Root execution 0011: decisions 0 and 1 offer {0, 1}, 2 and 3 only {1}.
    results.push_back(t.branch(1, 0));  // what the root did there
    results.push_back(t.branch(2, 0));  // thread 0 had finished: not an option
    results.push_back(t.branch(9, 1));  // no such decision
    results.push_back(t.branch(1, 1));
  });
  EXPECT_EQ(all_executions(s, model::independent_threads(2, 2)),
            (std::vector<std::string>{"0011", "0110"}));
  EXPECT_EQ(results, (std::vector<bool>{false, false, false, true}));
}

TEST(ExecutionTree, AnEarlierBranchHangsFromTheAncestorThatRanThatPrefix) {
  std::vector<bool> results;
  std::vector<std::size_t> first_new;
  HookedTree s({.track_branches = true}, [&](ExecutionTree& t) {
    first_new.push_back(t.first_new_decision());
    if (t.stats().executions == 1) {
      results.push_back(t.branch(1, 1));  // -> 0110
    } else if (t.stats().executions == 2) {
      // Decision 0 lies before this node's own delta (1): the branch belongs to the root.
      results.push_back(t.branch(0, 1));  // -> 1100
      // At decision 1 the root ran thread 0: refused. Thread 1 there is this very node:
      // refused because the root remembers it (track_branches).
      results.push_back(t.branch(1, 0));
      results.push_back(t.branch(1, 1));
      results.push_back(t.branch(0, 1));  // already added
      EXPECT_EQ(t.path().size(), 1u);
      EXPECT_EQ(t.path()[0].decision, 1u);
      EXPECT_EQ(t.path()[0].choice, 1u);
    }
  });
  EXPECT_EQ(all_executions(s, model::independent_threads(2, 2)),
            (std::vector<std::string>{"0011", "0110", "1100"}));
  EXPECT_EQ(results, (std::vector<bool>{true, true, false, false, false}));
  EXPECT_EQ(first_new, (std::vector<std::size_t>{0, 2, 1}));
  EXPECT_EQ(s.tree().stats().nodes_created, 3u);
  EXPECT_EQ(s.tree().stats().nodes_alive, 0u);
  EXPECT_EQ(s.tree().stats().peak_alive, 3u);
}

TEST(ExecutionTree, HigherPriorityRunsFirstWhateverItsDepth) {
  HookedTree s({}, [&](ExecutionTree& t) {
    if (t.stats().executions != 1) return;
    t.branch(1, 1, /*priority=*/0);  // 0110
    t.branch(0, 1, /*priority=*/5);  // 1100
  });
  EXPECT_EQ(all_executions(s, model::independent_threads(2, 2)),
            (std::vector<std::string>{"0011", "1100", "0110"}));
}

TEST(ExecutionTree, NodesFreeThemselvesWhenTheirSubtreeIsDone) {
  DfsStrategy dfs;
  const Program p = model::independent_threads(2, 3);
  Executor ex(p);
  std::uint64_t peak_while_running = 0;
  while (dfs.next_execution()) {
    ex.run(dfs);
    peak_while_running = std::max(peak_while_running, dfs.tree().stats().nodes_alive);
  }
  const ExecutionTree::Stats& st = dfs.tree().stats();
  EXPECT_EQ(st.executions, 20u);
  EXPECT_EQ(st.nodes_created, 20u);  // one node per execution, as GAMBIT observes
  EXPECT_EQ(st.nodes_alive, 0u);
  EXPECT_EQ(st.peak_alive, peak_while_running);
  EXPECT_LT(st.peak_alive, 20u);
}

TEST(ExecutionTree, RecordsDecisionsWithTheirOptionsAndOptionallyTheNextOps) {
  HookedTree s({.record_next_ops = true}, [&](ExecutionTree& t) {
    const auto d = t.decisions();
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].kind, Decision::kThread);
    EXPECT_EQ(d[0].options, 2u);
    EXPECT_EQ(t.enabled(d[0]).size(), 2u);
    ASSERT_EQ(t.next_ops(d[0]).size(), 2u);
    EXPECT_EQ(t.next_ops(d[0])[0].kind, OpKind::Yield);  // A's choose
    EXPECT_EQ(t.next_ops(d[0])[1].kind, OpKind::Write);  // B's write
    EXPECT_EQ(d[1].kind, Decision::kValue);
    EXPECT_EQ(d[1].options, 3u);
    EXPECT_TRUE(t.enabled(d[1]).empty());
    EXPECT_EQ(d[1].step, 0u);  // chosen during step 0
    EXPECT_EQ(d[2].step, 1u);
    EXPECT_FALSE(d[2].current_enabled);  // A had finished
    EXPECT_EQ(d[2].current, 0u);
  });
  Program p;
  const model::ObjectId x = p.variable("x");
  p.thread("A").choose(3, 0);
  p.thread("B").write(x, 1);
  Executor ex(p);
  ASSERT_TRUE(s.next_execution());
  ex.run(s);
}

// Drives a tree by hand: one scheduling point with the given enabled threads.
ThreadId step(ExecutionTree& t, std::size_t index, ThreadId current,
              std::vector<ThreadId> enabled) {
  std::vector<Op> ops(enabled.size());
  SchedulingPoint p;
  p.step = index;
  p.current = current;
  p.current_enabled = false;
  for (ThreadId e : enabled) p.current_enabled |= e == current;
  p.enabled = enabled;
  p.next_ops = ops;
  p.thread_count = 3;
  return t.choose_thread(p);
}

TEST(ExecutionTree, ABranchWhoseThreadIsNotEnabledRevealsNondeterminism) {
  ExecutionTree t;
  ASSERT_TRUE(t.start_execution());
  EXPECT_EQ(step(t, 0, kNoThread, {0, 1}), 0u);
  EXPECT_EQ(step(t, 1, 0, {0, 1}), 0u);
  EXPECT_TRUE(t.branch(1, 1));
  t.finish_execution();
  EXPECT_EQ(t.nondeterminism(), "");

  ASSERT_TRUE(t.start_execution());
  EXPECT_EQ(step(t, 0, kNoThread, {0, 1}), 0u);
  EXPECT_EQ(step(t, 1, 0, {0}), 0u);  // thread 1 vanished: the default is taken
  t.finish_execution();
  EXPECT_EQ(t.nondeterministic_executions(), 1u);
  EXPECT_EQ(t.nondeterminism(),
            "not reproducible: execution 2, decision 1: thread 1 should run but is not "
            "enabled (enabled: 0); the program does not behave the same under the same "
            "schedule");
  EXPECT_FALSE(t.start_execution());
}

TEST(ExecutionTree, OtherOptionsAtABranchOrAnEarlyEndRevealNondeterminism) {
  ExecutionTree t;
  ASSERT_TRUE(t.start_execution());
  step(t, 0, kNoThread, {0, 1});
  step(t, 1, 0, {0, 1});
  EXPECT_TRUE(t.branch(0, 1));
  EXPECT_TRUE(t.branch(1, 1));
  t.finish_execution();

  // (1, 1) first: thread 1 still runs, but among other threads than before.
  ASSERT_TRUE(t.start_execution());
  step(t, 0, kNoThread, {0, 1});
  EXPECT_EQ(step(t, 1, 0, {0, 1, 2}), 1u);
  t.finish_execution();
  EXPECT_NE(t.nondeterminism().find("decision 1: the enabled threads (0 1 2) differ"),
            std::string::npos)
      << t.nondeterminism();

  // The execution ends before its branch's decision.
  ExecutionTree u;
  ASSERT_TRUE(u.start_execution());
  step(u, 0, kNoThread, {0, 1});
  step(u, 1, 0, {0, 1});
  EXPECT_TRUE(u.branch(1, 1));
  u.finish_execution();
  ASSERT_TRUE(u.start_execution());
  step(u, 0, kNoThread, {0, 1});
  u.finish_execution();
  EXPECT_NE(u.nondeterminism().find("decision 1: the execution ended after 1 decisions"),
            std::string::npos)
      << u.nondeterminism();
}

TEST(ExecutionTree, ADecisionOfTheOtherKindRevealsNondeterminism) {
  ExecutionTree t;
  ASSERT_TRUE(t.start_execution());
  step(t, 0, kNoThread, {0});
  EXPECT_EQ(t.choose_value(2), 0u);
  EXPECT_TRUE(t.branch(1, 1));
  t.finish_execution();
  ASSERT_TRUE(t.start_execution());
  step(t, 0, kNoThread, {0});
  EXPECT_EQ(step(t, 1, 0, {0, 1}), 0u);  // a thread decision where the value was
  t.finish_execution();
  EXPECT_NE(t.nondeterminism().find("a value choice was expected"), std::string::npos)
      << t.nondeterminism();
}

TEST(ExecutionTree, DfsClaimsNoCoverageForANondeterministicProgram) {
  DfsStrategy dfs;
  std::vector<ThreadId> two = {0, 1}, one = {0};
  std::vector<Op> ops(2);
  for (int e = 0; dfs.next_execution(); ++e) {
    SchedulingPoint p;
    p.enabled = two;
    p.next_ops = ops;
    p.thread_count = 2;
    dfs.choose(p);
    p.step = 1;
    p.current = 0;
    p.current_enabled = true;
    // The second time round, thread 1 is no longer there at step 1.
    p.enabled = e == 0 ? std::span<const ThreadId>(two) : std::span<const ThreadId>(one);
    p.next_ops = std::span<const Op>(ops).first(p.enabled.size());
    dfs.choose(p);
    dfs.execution_done(Trace());
  }
  const Coverage c = dfs.coverage();
  EXPECT_EQ(c.kind, CoverageKind::kFull);
  EXPECT_FALSE(c.complete);
  EXPECT_FALSE(dfs.nondeterminism().empty());
  EXPECT_EQ(c.nondeterminism, dfs.nondeterminism());
  EXPECT_NE(c.summary.find(dfs.nondeterminism() + ": no coverage claim"), std::string::npos) << c.summary;
}

}  // namespace
}  // namespace weft
