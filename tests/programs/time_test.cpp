// Time under weft is the schedule's: sleeps do not sleep but advance virtual time, and
// every execution reads the same clock values at the same point of its schedule. So are
// libc's random generators: every execution starts them afresh.
#include <gtest/gtest.h>
#include <sys/time.h>
#include <weft/weft.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <thread>

std::int64_t g_first_reading = -1;
std::clock_t g_first_clock = -1;
long g_first_draws[3] = {-1, -1, -1};

namespace {

// A thread whose step and the caller's can go in either order: more than one schedule,
// whatever accesses the compiler instruments around std::thread (clang's -O2 leaves
// none between create and join).
void racing_thread() {
  std::atomic<int> x{0};
  std::thread t([&x] { x.store(1); });
  (void)x.load();
  t.join();
}

TEST(VirtualTime, SleepsAdvanceTimeWithoutSleeping) {
  auto body = [] {
    const auto t0 = std::chrono::steady_clock::now();
    std::thread sleeper([] { std::this_thread::sleep_for(std::chrono::seconds(30)); });
    sleeper.join();
    const auto waited = std::chrono::steady_clock::now() - t0;
    WEFT_ASSERT(waited >= std::chrono::seconds(30));
  };
  // 200 executions of a 30 s sleep: finishes only if nothing really sleeps.
  weft::Result r = weft::explore(body, {.strategy = "random", .executions = 200, .seed = 2});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_LT(r.elapsed_s(), 60.0);
}

// gettimeofday(NULL, tz) is a call a program may make (the time zone only, or nothing):
// glibc declares tv nonnull, and the check of it for NULL was once folded away by the
// compiler, so that weft wrote the virtual time through NULL.
TEST(VirtualTime, AGettimeofdayWithoutATimevalIsPassedOn) {
  auto body = [] {
    racing_thread();
    struct timeval* none = nullptr;
    asm("" : "+r"(none));  // not a constant the compiler warns of
    WEFT_ASSERT(gettimeofday(none, nullptr) == 0);
  };
  weft::Result r = weft::explore(body, {.strategy = "random", .executions = 5, .seed = 1});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), 5u);
}

TEST(VirtualTime, EveryExecutionStartsAtTheSameInstant) {
  // The explored executions run one after another in one process, so a global remembers
  // the first execution's reading: every later one reads the very same instant.
  auto body = [] {
    const std::int64_t now = std::chrono::system_clock::now().time_since_epoch().count();
    if (g_first_reading < 0) g_first_reading = now;
    WEFT_ASSERT(now == g_first_reading);
    struct timeval tv;
    gettimeofday(&tv, nullptr);
    // Each read moves virtual time on by 1 us: a second may begin between two of them.
    const std::time_t now_s = std::time(nullptr);
    WEFT_ASSERT(now_s == tv.tv_sec || now_s == tv.tv_sec + 1);
    // glibc's clock() and timespec_get() do not go through clock_gettime: virtual too.
    struct timespec ts;
    WEFT_ASSERT(timespec_get(&ts, TIME_UTC) == TIME_UTC);
    WEFT_ASSERT(ts.tv_sec == now_s || ts.tv_sec == now_s + 1);
    const std::clock_t cpu = std::clock();
    if (g_first_clock < 0) g_first_clock = cpu;
    WEFT_ASSERT(cpu == g_first_clock);
    racing_thread();
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete());
  EXPECT_GT(r.executions(), 1u);
}

TEST(VirtualTime, ALoopPollingTheClockSeesItsDeadlineCome) {
  // No scheduling point in the loop: only the reads themselves can move time on (it was a
  // hang). Each read is 1 us of virtual time, so 5 ms is 5,000 reads, in every execution.
  auto body = [] {
    std::atomic<bool> stop{false};
    std::thread poller([&stop] {
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(5);
      long reads = 1;
      while (std::chrono::steady_clock::now() < end) ++reads;
      WEFT_ASSERT(reads == 5000);
      stop = true;
    });
    while (!stop) std::this_thread::yield();
    poller.join();
  };
  weft::Result r = weft::explore(body, {.strategy = "random", .executions = 20, .seed = 1,
                                        .hang_timeout_s = 5});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), 20u);
}

TEST(VirtualTime, RandomGeneratorsRestartWithEveryExecution) {
  // The executions share this process: without a restart, rand() would go on where the
  // last execution left it, and the worker count with it.
  auto body = [] {
    const long draws[3] = {std::rand(), lrand48(), static_cast<long>(drand48() * 1e9)};
    if (g_first_draws[0] < 0) std::copy(draws, draws + 3, g_first_draws);
    for (int i = 0; i < 3; ++i) WEFT_ASSERT(draws[i] == g_first_draws[i]);
    const int workers = 1 + std::rand() % 2;
    for (int i = 0; i < workers; ++i) racing_thread();
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
  EXPECT_GT(r.executions(), 1u);
}

TEST(VirtualTime, RealTimeOptionReadsTheRealClock) {
  // The same body as above, with real clocks: the second execution reads a later instant.
  auto body = [] {
    const std::int64_t now = std::chrono::system_clock::now().time_since_epoch().count();
    if (g_first_reading < 0) g_first_reading = now;
    WEFT_ASSERT(now == g_first_reading);
    racing_thread();
  };
  g_first_reading = -1;
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0, .real_time = true});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bugs()[0].execution(), 2u) << r.report();
}

}  // namespace

namespace {

// The time budget holds inside an execution: a body that spins for ever between
// scheduling points is stopped once the budget (and a second's grace) is over, and the
// result says so, with no bug and no claim.
TEST(TimeBudget, HoldsInsideAnExecution) {
  auto body = [] {
    volatile int never = 0;
    while (never == 0) {
    }
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0, .time_limit_s = 1});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.error().empty()) << r.error();
  EXPECT_FALSE(r.complete());
  EXPECT_NE(r.coverage().find("stopped by the time budget during execution 1"), std::string::npos)
      << r.coverage();
}

}  // namespace
