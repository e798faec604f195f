// The WEFT_TESTs that gtest_macro_test.cpp runs as a subprocess, reading their output and
// exit status: bugs with their correct twins, options the environment overrides. Not a
// test of its own: some of these fail on purpose.
#include <weft/gtest.hpp>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace {

// The lost update's assertion, loosened by the driver to stand for a fix that keeps every
// scheduling point (replaying the bug's schedule then shows it gone).
const int kExpected = std::getenv("CASES_EXPECTED") != nullptr ? std::atoi(std::getenv("CASES_EXPECTED")) : 2;

}  // namespace

WEFT_TEST(LostUpdate, Found) {
  int counter = 0;  // plain, unsynchronised
  std::thread a([&] { counter++; }), b([&] { counter++; });
  a.join();
  b.join();
  WEFT_ASSERT(counter >= kExpected);
}

WEFT_TEST(LostUpdate, Locked) {
  std::mutex m;
  int counter = 0;
  auto add = [&] {
    std::lock_guard<std::mutex> g(m);
    counter++;
  };
  std::thread a(add), b(add);
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
}

// A gtest check in a thread the body started is the bug: the flag is published before the
// data it guards.
WEFT_TEST(Expect, InAThread) {
  std::atomic<bool> ready{false};
  int data = 0;
  std::thread producer([&] {
    ready = true;
    data = 42;
  });
  std::thread consumer([&] {
    if (ready) {
      const int seen = data;
      EXPECT_EQ(seen, 42) << "the flag came before the data";
    }
  });
  producer.join();
  consumer.join();
}

WEFT_TEST(Expect, InOrder) {
  std::atomic<bool> ready{false};
  int data = 0;
  std::thread producer([&] {
    data = 42;
    ready = true;
  });
  std::thread consumer([&] {
    if (ready) {
      const int seen = data;
      EXPECT_EQ(seen, 42) << "the flag came before the data";
    }
  });
  producer.join();
  consumer.join();
}

// Its own options: they show in the summary line, unless the environment overrides them.
WEFT_TEST_OPTIONS(Options, Budget, {.strategy = "random", .executions = 7, .seed = 3}) {
  std::atomic<int> counter{0};
  std::thread a([&] { counter++; }), b([&] { counter++; });
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
}

// dfs's first execution has no preemption, so one execution misses the lost update; a
// CI run with WEFT_EXECUTIONS=0 searches the whole space and finds it.
WEFT_TEST_OPTIONS(Options, TooSmallABudget, {.strategy = "dfs", .executions = 1}) {
  int counter = 0;
  std::thread a([&] { counter++; }), b([&] { counter++; });
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
}

// A plain TEST that explores by itself: FailuresAsBugs makes the body's gtest checks bugs,
// and the test's own checks still reach gtest.
TEST(Plain, ChecksAroundExplore) {
  weft::gtest::FailuresAsBugs checks;
  weft::Result r = weft::explore([] {
    int counter = 0;
    std::thread a([&] { counter++; }), b([&] { counter++; });
    a.join();
    b.join();
    EXPECT_EQ(counter, 2) << "inside the body";
  });
  EXPECT_TRUE(r.ok()) << "the test's own check, after the exploration:\n" << r.report();
}
