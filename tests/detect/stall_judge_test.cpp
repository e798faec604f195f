// A hang is judged by the stalled thread's own state: a runnable thread that a loaded
// machine gives no CPU is not hung, however long the wall clock runs.
#include "detect/stall_judge.hpp"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace weft::detect {
namespace {

constexpr std::uint64_t kSecond = 1000000000ull;

ThreadActivity activity(char state, std::uint64_t cpu_s) { return {true, state, cpu_s * kSecond}; }

TEST(StallJudge, ARunnableThreadStarvedOfCpuIsNotHung) {
  StallJudge judge(10 * kSecond);
  EXPECT_FALSE(judge.hung(0, 5, activity('R', 1)));
  // Five minutes of wall time without a step, but only 2 s of CPU: a loaded machine.
  EXPECT_FALSE(judge.hung(300 * kSecond, 5, activity('R', 3)));
  // Ten seconds of its own CPU without a step: a computation that never reaches a point.
  EXPECT_TRUE(judge.hung(301 * kSecond, 5, activity('R', 11)));
}

TEST(StallJudge, AThreadBlockedInTheKernelIsHungAfterTheLimit) {
  StallJudge judge(10 * kSecond);
  EXPECT_FALSE(judge.hung(0, 7, activity('R', 0)));
  EXPECT_FALSE(judge.hung(1 * kSecond, 7, activity('S', 0)));
  EXPECT_FALSE(judge.hung(10 * kSecond, 7, activity('S', 0))) << "blocked for 9 s only";
  EXPECT_TRUE(judge.hung(11 * kSecond, 7, activity('S', 0)));
  // A step starts the count again, and so does running in between.
  EXPECT_FALSE(judge.hung(12 * kSecond, 8, activity('S', 0)));
  EXPECT_FALSE(judge.hung(13 * kSecond, 8, activity('S', 0)));
  EXPECT_FALSE(judge.hung(20 * kSecond, 8, activity('R', 0)));
  EXPECT_FALSE(judge.hung(25 * kSecond, 8, activity('S', 0)));
  EXPECT_FALSE(judge.hung(34 * kSecond, 8, activity('S', 0)));
  EXPECT_TRUE(judge.hung(35 * kSecond, 8, activity('D', 0)));
}

// CPU time is per kernel thread: another thread's count never makes a stall.
TEST(StallJudge, AnotherKernelThreadsCpuTimeIsNotThisOnes) {
  StallJudge judge(10 * kSecond);
  ThreadActivity before = activity('R', 50);
  before.tid = 1;
  EXPECT_FALSE(judge.hung(0, 3, before));
  ThreadActivity after = activity('R', 1);
  after.tid = 2;
  EXPECT_FALSE(judge.hung(1 * kSecond, 3, after)) << "no underflow into a huge count";
  after.cpu_ns = 5 * kSecond;
  EXPECT_FALSE(judge.hung(2 * kSecond, 3, after));
  after.cpu_ns = 11 * kSecond;
  EXPECT_TRUE(judge.hung(3 * kSecond, 3, after));
}

TEST(StallJudge, WithoutProcWallTimeJudges) {
  StallJudge judge(10 * kSecond);
  EXPECT_FALSE(judge.hung(0, 1, ThreadActivity{}));
  EXPECT_FALSE(judge.hung(9 * kSecond, 1, ThreadActivity{}));
  EXPECT_TRUE(judge.hung(10 * kSecond, 1, ThreadActivity{}));
}

TEST(StallJudge, ParsesAStatLineWhoseCommandHoldsParentheses) {
  ThreadActivity a;
  const std::string line =
      "4242 (my (odd) prog) S 1 4242 4242 0 -1 4194560 120 0 0 0 250 75 0 0 20 0 3 0 100 "
      "1000 10 18446744073709551615\n";
  ASSERT_TRUE(parse_thread_stat(line, 100, &a));
  EXPECT_EQ(a.state, 'S');
  EXPECT_EQ(a.cpu_ns, (250 + 75) * 10000000ull);  // ticks of 10 ms
  EXPECT_FALSE(parse_thread_stat("4242 (truncated) R 1 2", 100, &a));
  EXPECT_FALSE(parse_thread_stat("no parenthesis", 100, &a));
}

TEST(StallJudge, ReadsThisThread) {
  const ThreadActivity a = read_thread_activity(0, static_cast<pid_t>(syscall(SYS_gettid)));
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.state, 'R');  // it is running: it reads its own state
  const ThreadActivity other = read_thread_activity(getpid(), static_cast<pid_t>(syscall(SYS_gettid)));
  EXPECT_TRUE(other.ok);
}

}  // namespace
}  // namespace weft::detect
