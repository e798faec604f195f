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
  EXPECT_EQ(s, "cycle: T1 waits for T2 (mutex-lock), T2 waits for T1 (mutex-lock)");
}

TEST(DescribeDeadlock, WithoutACycleSaysWhatEachThreadWaitsFor) {
  std::string s = describe_deadlock({wait(0, OpKind::ThreadJoin, 0, 1),
                                     wait(1, OpKind::CondWake, 0xc0, kNoThread)});
  EXPECT_EQ(s, "T1 waits in cond-wake, never signalled");
  EXPECT_EQ(describe_deadlock({wait(1, OpKind::SemWait, 0xd0, kNoThread)}),
            "T1 waits in sem-wait, the semaphore stays at 0");
}

}  // namespace
}  // namespace weft::detect
