// The model program drives strategies exactly as the runtime does: these tests pin down
// what a strategy is shown and what is recorded.
#include "support/model_program.hpp"

#include <gtest/gtest.h>

#include "support/example_programs.hpp"
#include "support/scripted_strategy.hpp"

namespace weft::model {
namespace {

TEST(ModelProgram, SchedulingPointsListEnabledThreadsAscendingWithTheirNextOps) {
  Program p;
  const ObjectId x = p.variable("x");
  const ObjectId m = p.mutex("m");
  p.thread("A").lock(m).write(x, 1).unlock(m);
  p.thread("B").lock(m).read(x, 0).unlock(m);
  ScriptedStrategy script;  // default choices: A runs to the end, then B
  RecordingStrategy rec(script);
  Executor ex(p);
  ASSERT_TRUE(rec.next_execution());
  const ExecutionResult r = ex.run(rec);
  EXPECT_FALSE(r.hit);
  ASSERT_EQ(r.steps, 6u);
  ASSERT_EQ(rec.points.size(), 6u);

  const SeenPoint& first = rec.points[0];
  EXPECT_EQ(first.step, 0u);
  EXPECT_EQ(first.current, kNoThread);
  EXPECT_FALSE(first.current_enabled);
  EXPECT_EQ(first.enabled, (std::vector<ThreadId>{0, 1}));
  ASSERT_EQ(first.next_ops.size(), 2u);
  EXPECT_EQ(first.next_ops[0].kind, OpKind::MutexLock);
  EXPECT_EQ(first.next_ops[0].object, Executor::object_address(m));
  EXPECT_EQ(first.thread_count, 2u);

  // A holds m: B, about to lock it, is not enabled.
  const SeenPoint& second = rec.points[1];
  EXPECT_EQ(second.current, 0u);
  EXPECT_TRUE(second.current_enabled);
  EXPECT_EQ(second.enabled, (std::vector<ThreadId>{0}));
  EXPECT_EQ(second.next_ops[0].kind, OpKind::Write);
  EXPECT_EQ(second.next_ops[0].object, Executor::object_address(x));

  // A finished after its unlock: B runs, without a preemption.
  const SeenPoint& fourth = rec.points[3];
  EXPECT_EQ(fourth.current, 0u);
  EXPECT_FALSE(fourth.current_enabled);
  EXPECT_EQ(fourth.enabled, (std::vector<ThreadId>{1}));

  for (const Event& e : ex.events()) EXPECT_EQ(e.flags & kPreemption, 0);
  EXPECT_EQ(ex.events()[0].enabled, 2);
  EXPECT_EQ(ex.events()[1].enabled, 1);
  EXPECT_EQ(ex.events()[4].op.kind, OpKind::Read);
  EXPECT_EQ(ex.events()[4].thread, 1u);
}

TEST(ModelProgram, PreemptionIsMarkedOnlyWhenThePreviousThreadCouldHaveContinued) {
  Program p = independent_threads(2, 2);
  ScriptedStrategy s({0, 1, 0, 1});
  Executor ex(p);
  s.next_execution();
  ex.run(s);
  ASSERT_EQ(ex.events().size(), 4u);
  EXPECT_EQ(ex.events()[0].flags & kPreemption, 0);  // nobody ran before
  EXPECT_NE(ex.events()[1].flags & kPreemption, 0);  // 0 could have continued
  EXPECT_NE(ex.events()[2].flags & kPreemption, 0);  // 1 could have continued
  EXPECT_EQ(ex.events()[3].flags & kPreemption, 0);  // 0 had finished
  EXPECT_EQ(Trace(ex.events().data(), ex.events().size()).preemptions(), 2u);
}

TEST(ModelProgram, NoEnabledThreadWhileSomeAreUnfinishedIsADeadlock) {
  Program p;
  const ObjectId m1 = p.mutex("m1");
  const ObjectId m2 = p.mutex("m2");
  p.thread("A").lock(m1).lock(m2).unlock(m2).unlock(m1);
  p.thread("B").lock(m2).lock(m1).unlock(m1).unlock(m2);
  Executor ex(p);
  ScriptedStrategy crossed({0, 1});
  crossed.next_execution();
  ExecutionResult r = ex.run(crossed);
  EXPECT_TRUE(r.deadlock);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.message, "deadlock");
  EXPECT_EQ(r.steps, 2u);

  ScriptedStrategy serial;
  serial.next_execution();
  r = ex.run(serial);
  EXPECT_FALSE(r.deadlock);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.steps, 8u);

  p.deadlock_is_bug(false);
  Executor quiet(p);
  crossed.next_execution();
  r = quiet.run(crossed);
  EXPECT_TRUE(r.deadlock);
  EXPECT_FALSE(r.hit);
}

TEST(ModelProgram, PosExampleFailsItsAssertionOnTheTargetOrder) {
  Program p = pos_running_example();
  Executor ex(p);
  // B1 A1 B2 B3 A2 A3 B4 B5 B6 A4 (A is thread 0, B thread 1).
  ScriptedStrategy bug({1, 0, 1, 1, 0, 0, 1, 1, 1, 0});
  bug.next_execution();
  ExecutionResult r = ex.run(bug);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.message, "A4: assert(!(a1 == 1 && a2 == 1 && a4 == 1))");
  EXPECT_EQ(ex.order(), kPosBugOrder);

  ScriptedStrategy other({1, 0, 1, 0});
  other.next_execution();
  r = ex.run(other);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.steps, 10u);
}

TEST(ModelProgram, TargetOrderAndFinalCheckDecideTheBug) {
  Program p;
  const ObjectId x = p.variable("x");
  // A lost update: both read x, both write back what they read + 1.
  for (const char* name : {"A", "B"}) {
    p.thread(name).read(x, 0).label(std::string(name) + "r").access(
        OpKind::Write, x, [x](State& s, ThreadIndex self) { s[x] = s.reg(self, 0) + 1; });
  }
  p.expect_final([x](const State& s) { return s[x] == 2; }, "x == 2");
  Executor ex(p);
  ScriptedStrategy serial;
  serial.next_execution();
  EXPECT_FALSE(ex.run(serial).hit);
  EXPECT_EQ(ex.state()[x], 2);
  ScriptedStrategy racy({0, 1});
  racy.next_execution();
  ExecutionResult r = ex.run(racy);
  EXPECT_TRUE(r.hit);
  EXPECT_EQ(r.message, "x == 2");
  EXPECT_EQ(ex.order(), "Ar Br");
}

TEST(ModelProgram, SpawnedThreadsTakeTheNextIdsAndJoinWaits) {
  Program p = pos_running_example(/*with_main=*/true);
  ScriptedStrategy s;  // default: main spawns both, waits in join; A, then B run
  RecordingStrategy rec(s);
  Executor ex(p);
  rec.next_execution();
  const ExecutionResult r = ex.run(rec);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.steps, 14u);
  EXPECT_EQ(rec.points[0].thread_count, 1u);
  EXPECT_EQ(rec.points[0].enabled, (std::vector<ThreadId>{0}));
  EXPECT_EQ(rec.points[0].next_ops[0].kind, OpKind::ThreadCreate);
  EXPECT_EQ(rec.points[0].next_ops[0].aux, 1u);  // A will be thread 1
  EXPECT_EQ(rec.points[1].thread_count, 2u);
  EXPECT_EQ(rec.points[1].enabled, (std::vector<ThreadId>{0, 1}));
  EXPECT_EQ(rec.points[2].thread_count, 3u);
  // main's join(A) is not enabled until A has finished.
  EXPECT_EQ(rec.points[2].enabled, (std::vector<ThreadId>{1, 2}));
  EXPECT_EQ(ex.order(), "A1 A2 A3 A4 B1 B2 B3 B4 B5 B6");
  EXPECT_EQ(ex.events().back().op.kind, OpKind::ThreadJoin);
  EXPECT_EQ(ex.events().back().thread, 0u);
}

TEST(ModelProgram, ValueChoicesAskTheStrategyAndAreRecorded) {
  Program p;
  const ObjectId x = p.variable("x");
  p.thread("A").choose(3, 0).access(OpKind::Write, x,
                                    [x](State& s, ThreadIndex self) { s[x] = s.reg(self, 0); });
  ScriptedStrategy s({}, {2});
  RecordingStrategy rec(s);
  Executor ex(p);
  rec.next_execution();
  ex.run(rec);
  EXPECT_EQ(rec.values, (std::vector<std::size_t>{3}));
  EXPECT_EQ(ex.state()[x], 2);
  ASSERT_EQ(ex.decisions().size(), 3u);
  EXPECT_EQ(ex.decisions()[0], (Decision{Decision::kThread, 0}));
  EXPECT_EQ(ex.decisions()[1], (Decision{Decision::kValue, 2}));
  EXPECT_EQ(ex.decisions()[2], (Decision{Decision::kThread, 0}));
}

TEST(ModelProgram, AStrategyThatChoosesADisabledThreadIsReported) {
  Program p;
  const ObjectId m = p.mutex("m");
  p.thread("A").lock(m).unlock(m);
  p.thread("B").lock(m).unlock(m);
  ScriptedStrategy bad({0, 1});  // B is blocked at step 1
  const RunResult r = run(bad, p, 3);
  EXPECT_EQ(r.violations, 3u);
  EXPECT_EQ(r.violation, "step 1: the strategy chose thread 1, which is not enabled");
  EXPECT_EQ(r.executions, 3u);
}

TEST(ModelProgram, RunCountsExecutionsHitsAndDistinctSchedules) {
  Program p = pos_running_example();
  ScriptedStrategy s({1, 0, 1, 1, 0, 0, 1, 1, 1, 0});
  const RunResult r = run(s, p, 5);
  EXPECT_EQ(r.executions, 5u);
  EXPECT_EQ(r.hits, 5u);
  EXPECT_EQ(r.first_hit, 0);
  EXPECT_EQ(r.distinct_schedules, 1u);
  EXPECT_EQ(r.max_steps, 10u);
  EXPECT_EQ(r.total_steps, 50u);
  EXPECT_FALSE(r.exhausted);

  ScriptedStrategy s2({1, 0, 1, 1, 0, 0, 1, 1, 1, 0});
  const RunResult first = run(s2, p, 5, RunOptions{.stop_at_first_hit = true});
  EXPECT_EQ(first.executions, 1u);
}

}  // namespace
}  // namespace weft::model
