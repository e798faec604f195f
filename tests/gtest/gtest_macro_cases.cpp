// The WEFT_TESTs that gtest_macro_test.cpp runs as a subprocess, reading their output and
// exit status: bugs with their correct twins, options the environment overrides. Not a
// test of its own: some of these fail on purpose.
#include <weft/gtest.hpp>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

namespace {

// The lost update's assertion, loosened by the driver to stand for a fix that keeps every
// scheduling point (replaying the bug's schedule then shows it gone).
const int kExpected = std::getenv("CASES_EXPECTED") != nullptr ? std::atoi(std::getenv("CASES_EXPECTED")) : 2;

// `threads` threads each append their letter `each` times under a lock; the order they
// did it in is appended to the file CASES_LOG names (when set), one line per execution
// with `tag`: the driver compares the shards' executions with the unsharded search's.
void appends(const char* tag, int threads, int each) {
  std::mutex m;
  std::string order;
  std::thread t[3];
  for (int i = 0; i < threads; ++i)
    t[i] = std::thread([&, letter = static_cast<char>('a' + i)] {
      for (int k = 0; k < each; ++k) {
        std::lock_guard<std::mutex> g(m);
        order += letter;
      }
    });
  for (int i = 0; i < threads; ++i) t[i].join();
  if (const char* log = std::getenv("CASES_LOG")) std::ofstream(log, std::ios::app) << tag << " " << order << "\n";
}

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

// Sharding (GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS, WEFT_SHARD): each explores its shard of
// its search; the plain TEST runs in every shard.
WEFT_TEST_OPTIONS(Shard, Systematic,
                  {.strategy = "dfs", .executions = 0, .preempt_on = weft::PreemptOn::kSync,
                   .state_cache = false}) {
  appends("dfs", 2, 2);
}

WEFT_TEST_OPTIONS(Shard, Sampled,
                  {.strategy = "random", .executions = 40, .seed = 5,
                   .preempt_on = weft::PreemptOn::kSync}) {
  appends("random", 3, 3);
}

TEST(Shard, Plain) { SUCCEED(); }

// Options::shard in a plain TEST that explores by itself: its part of the search, or an
// error naming what is accepted.
TEST(ShardOption, InAPlainTest) {
  const weft::Result half = weft::explore([] { appends("plain", 2, 1); },
                                          {.strategy = "random", .executions = 40, .shard = "1/2"});
  EXPECT_TRUE(half.ok()) << half.report();
  EXPECT_EQ(half.executions(), 20u);
  const weft::Result bad = weft::explore([] {}, {.shard = "2/2"});
  EXPECT_EQ(bad.error(), "shard must be I/N, shard I of N with 0 <= I < N (such as 0/4) and N "
                         "at most 1048576, not '2/2'");
  EXPECT_EQ(bad.executions(), 0u);
  // weft merge's limit: more shards were taken (2^32 - 1).
  const weft::Result many = weft::explore([] {}, {.shard = "0/1048577"});
  EXPECT_EQ(many.error(), "shard must be I/N, shard I of N with 0 <= I < N (such as 0/4) and N "
                          "at most 1048576, not '0/1048577'");
  EXPECT_EQ(many.executions(), 0u);
}

// Its step bound from CASES_STEPS (default 100000): a schedule found under one bound
// replays under it with WEFT_REPLAY, whatever the test's options are then (issue #26, 5).
std::uint64_t cases_steps() {
  const char* v = std::getenv("CASES_STEPS");
  return v != nullptr ? std::strtoull(v, nullptr, 10) : 100000;
}

WEFT_TEST_OPTIONS(Recorded, Steps, {.strategy = "dfs", .executions = 1, .max_steps = cases_steps()}) {
  std::atomic<bool> stop{false};
  std::thread spinner([&] {
    while (!stop.load()) std::this_thread::yield();
  });
  spinner.join();  // never: a livelock
}
