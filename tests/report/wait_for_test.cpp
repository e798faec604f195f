#include "report/wait_for.hpp"

#include <gtest/gtest.h>

#include "records.hpp"

namespace weft {
namespace {

using weft_test::event;

// Lock-order inversion: T1 holds a and wants b, T2 holds b and wants a; main joins T1.
BugRecord inversion() {
  const std::uintptr_t a = 0x100, b = 0x200;
  BugRecord bug;
  bug.kind = BugKind::kDeadlock;
  bug.events = {event(1, OpKind::MutexLock, a, 0), event(2, OpKind::MutexLock, b, 0)};
  bug.blocked = {{0, make_op(OpKind::ThreadJoin, 0, 0, 0, 1)},
                 {1, make_op(OpKind::MutexLock, b)},
                 {2, make_op(OpKind::MutexLock, a)}};
  return bug;
}

TEST(WaitFor, FollowsHoldersAndJoinsToTheCycle) {
  const WaitFor waits(inversion());
  EXPECT_EQ(waits.holder(0), 1u);
  EXPECT_EQ(waits.holder(1), 2u);
  EXPECT_EQ(waits.holder(2), 1u);
  EXPECT_EQ(waits.cycle(), (std::vector<ThreadId>{1, 2}));
  EXPECT_EQ(waits.in_cycles(), (std::vector<ThreadId>{1, 2})) << "main waits, but not in the ring";
}

TEST(WaitFor, AnUnlockedMutexAndAConditionHaveNoHolder) {
  BugRecord bug = inversion();
  bug.events.push_back(event(2, OpKind::MutexUnlock, 0x200, 0));
  const WaitFor waits(bug);
  EXPECT_EQ(waits.holder(1), kNoThread);
  EXPECT_TRUE(waits.cycle().empty());
}

}  // namespace
}  // namespace weft
