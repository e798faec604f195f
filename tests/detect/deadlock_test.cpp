#include "detect/deadlock.hpp"

#include <gtest/gtest.h>

namespace weft::detect {
namespace {

WaitEdge wait(ThreadId t, OpKind kind, std::uintptr_t obj, ThreadId holder) {
  return WaitEdge{t, make_op(kind, obj), holder};
}

TEST(DescribeDeadlock, NamesTheCycle) {
  std::string s = describe_deadlock({wait(0, OpKind::ThreadJoin, 0, 1),
                                     wait(1, OpKind::MutexLock, 0xa0, 2),
                                     wait(2, OpKind::MutexLock, 0xb0, 1)});
  EXPECT_EQ(s, "cycle: T1 waits for T2 (to unlock a mutex), T2 waits for T1 (to unlock a mutex)");
}

TEST(DescribeDeadlock, WithoutACycleSaysWhatEachThreadWaitsFor) {
  std::string s = describe_deadlock({wait(0, OpKind::ThreadJoin, 0, 1),
                                     wait(1, OpKind::CondWake, 0xc0, kNoThread)});
  EXPECT_EQ(s, "T1 waits on a condition variable, never signalled");
  EXPECT_EQ(describe_deadlock({wait(1, OpKind::SemWait, 0xd0, kNoThread)}),
            "T1 waits on a semaphore, which stays at 0");
  EXPECT_EQ(describe_deadlock({wait(1, OpKind::FutexWoken, 0xe0, kNoThread)}),
            "T1 waits on a futex, never woken");
}

}  // namespace
}  // namespace weft::detect

namespace weft::detect {
namespace {

TEST(NoneEnabled, NothingToWaitOutIsADeadlock) {
  EXPECT_TRUE(unblocked_when_none_enabled({}).empty());
  EXPECT_TRUE(unblocked_when_none_enabled({{1, false, false}, {2, false, false}}).empty());
}

TEST(NoneEnabled, TimedWaitsTimeOutBeforeInputIsAwaited) {
  const std::vector<StuckThread> blocked = {{1, false, true}, {2, true, false}, {3, true, false}};
  EXPECT_EQ(unblocked_when_none_enabled(blocked), (std::vector<ThreadId>{2, 3}));
}

TEST(NoneEnabled, InputFromOutsideGoesAheadWhenNoWaitCanTimeOut) {
  const std::vector<StuckThread> blocked = {{0, false, false}, {4, false, true}};
  EXPECT_EQ(unblocked_when_none_enabled(blocked), (std::vector<ThreadId>{4}));
}

}  // namespace
}  // namespace weft::detect
