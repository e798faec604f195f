// Fairness as a unit: who is held back after which yields.
#include "runtime/fairness.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace weft::rt {
namespace {

const Op kYield = make_op(OpKind::Yield);

// `t` yields until fairness applies (past the free yields of a spin) with `enabled`.
void yield_past_free(Fairness& f, ThreadId t, const std::vector<ThreadId>& enabled) {
  for (std::uint32_t i = 0; i <= Fairness::kFreeYields; ++i)
    EXPECT_TRUE(f.on_step(t, kYield, enabled, {}));
}

std::vector<ThreadId> filtered(const Fairness& f, std::vector<ThreadId> threads,
                               std::vector<ThreadId>* held) {
  std::vector<Op> ops(threads.size(), kYield);
  f.filter(threads, ops, *held);
  EXPECT_EQ(ops.size(), threads.size());
  return threads;
}

TEST(FairnessUnit, FreeYieldsThenHeldUntilTheOthersStep) {
  Fairness f;
  std::vector<ThreadId> held;
  for (std::uint32_t i = 0; i < Fairness::kFreeYields; ++i) f.on_step(0, kYield, {0, 1}, {});
  EXPECT_EQ(filtered(f, {0, 1}, &held), (std::vector<ThreadId>{0, 1}));
  f.on_step(0, kYield, {0, 1}, {});
  EXPECT_EQ(filtered(f, {0, 1}, &held), (std::vector<ThreadId>{1}));
  EXPECT_EQ(held, (std::vector<ThreadId>{0}));
  f.on_step(1, make_op(OpKind::Write, 0x10), {1}, {0});
  EXPECT_EQ(filtered(f, {0, 1}, &held), (std::vector<ThreadId>{0, 1}));
}

TEST(FairnessUnit, WhoIsHeldIsDecidedOnTheWholeEnabledList) {
  // T0 waits for T1; T2 yielded while T1 was disabled, so it waits for T0 only. With all
  // three enabled, T0 and T2 are both held: T2's wait depends on T0 being enabled, not
  // on whether T0 is itself held.
  Fairness f;
  yield_past_free(f, 0, {0, 1});
  yield_past_free(f, 2, {0, 2});
  std::vector<ThreadId> held;
  EXPECT_EQ(filtered(f, {0, 1, 2}, &held), (std::vector<ThreadId>{1}));
  EXPECT_EQ(held, (std::vector<ThreadId>{0, 2}));
}

TEST(FairnessUnit, RepeatedLoadsOfOneObjectAreASpin) {
  Fairness f;
  const Op load = make_op(OpKind::AtomicLoad, 0x40);
  int yields = 0;
  for (std::uint32_t i = 0; i < 4 * Fairness::kSpinRepeats; ++i)
    yields += f.on_step(0, load, {0, 1}, {});
  EXPECT_EQ(yields, 3);  // the first load starts the spin; then one per kSpinRepeats repeats
}

// while (pthread_mutex_trylock(&m) != 0) sched_yield(): the failed trylocks are the
// spin's re-executed steps, not operations that end it, so the yields add up and the
// spinner is held until the lock's holder has stepped (it was never held: a livelock).
TEST(FairnessUnit, ATrylockYieldLoopIsASpin) {
  for (OpKind k : {OpKind::MutexTryLock, OpKind::RwTryReadLock, OpKind::RwTryWriteLock,
                   OpKind::SemTryWait}) {
    Fairness f;
    const Op attempt = make_op(k, 0x80);
    for (std::uint32_t i = 0; i <= Fairness::kFreeYields; ++i) {
      f.on_step(0, attempt, {0, 1}, {});
      EXPECT_TRUE(f.on_step(0, kYield, {0, 1}, {}));
    }
    std::vector<ThreadId> held;
    EXPECT_EQ(filtered(f, {0, 1}, &held), (std::vector<ThreadId>{1})) << op_name(k);
  }
}

TEST(FairnessUnit, OffHoldsNobody) {
  Fairness f;
  f.set_enabled(false);
  for (std::uint32_t i = 0; i < 2 * Fairness::kFreeYields; ++i)
    EXPECT_FALSE(f.on_step(0, kYield, {0, 1}, {}));
  std::vector<ThreadId> held;
  EXPECT_EQ(filtered(f, {0, 1}, &held), (std::vector<ThreadId>{0, 1}));
}

}  // namespace
}  // namespace weft::rt
