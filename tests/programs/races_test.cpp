// Data races through the in-process API: Options::races and Options::preempt_on, with the
// C++ primitives a test body uses (std::thread, std::mutex, std::atomic, containers).
#include <gtest/gtest.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

int g_counter;

void lost_update() {
  g_counter = 0;
  std::thread a([] { ++g_counter; });
  std::thread b([] { ++g_counter; });
  a.join();
  b.join();
  WEFT_ASSERT(g_counter == 2);
}

weft::Options with(weft::Races races, weft::PreemptOn preempt_on, const char* strategy = "dfs") {
  weft::Options o;
  o.strategy = strategy;
  o.executions = 0;
  o.races = races;
  o.preempt_on = preempt_on;
  return o;
}

TEST(Races, ARaceIsTheBugWithKFail) {
  weft::Result r = weft::explore(lost_update, with(weft::Races::kFail, weft::PreemptOn::kRacy));
  ASSERT_EQ(r.bugs().size(), 1u) << r.report();
  EXPECT_EQ(r.bugs()[0].kind(), weft::BugKind::kDataRace);
  EXPECT_EQ(r.bugs()[0].execution(), 1u);
  EXPECT_NE(r.report().find("g_counter' at 0x"), std::string::npos) << r.report();
  weft::Result again = weft::replay(lost_update, r.bugs()[0].schedule(),
                                    with(weft::Races::kFail, weft::PreemptOn::kRacy));
  ASSERT_TRUE(again.failed()) << again.report();
  EXPECT_EQ(again.bugs()[0].kind(), weft::BugKind::kDataRace);
}

TEST(Races, RacyPointsFindTheLostUpdateThatSyncPointsMiss) {
  weft::Result sync = weft::explore(lost_update, with(weft::Races::kReport, weft::PreemptOn::kSync));
  EXPECT_TRUE(sync.ok()) << sync.report();
  EXPECT_TRUE(sync.complete());
  EXPECT_FALSE(sync.races().empty());
  weft::Result racy = weft::explore(lost_update, with(weft::Races::kReport, weft::PreemptOn::kRacy));
  ASSERT_EQ(racy.bugs().size(), 1u) << racy.report();
  EXPECT_EQ(racy.bugs()[0].kind(), weft::BugKind::kAssertion);
  // weft3, with its options and its racy points.
  EXPECT_EQ(racy.bugs()[0].schedule().rfind("weft3.", 0), 0u) << racy.bugs()[0].schedule();
  EXPECT_NE(racy.bugs()[0].schedule().find(".races=report,preempt-on=racy.+"), std::string::npos)
      << racy.bugs()[0].schedule();
  weft::Result again = weft::replay(lost_update, racy.bugs()[0].schedule(),
                                    with(weft::Races::kReport, weft::PreemptOn::kRacy));
  ASSERT_TRUE(again.failed()) << again.report();
  EXPECT_EQ(again.bugs()[0].kind(), weft::BugKind::kAssertion);
}

// The schedule records the options it was found with (issue #26, 5): replayed with the
// default Options (races off, every access a point), or others, it is the same execution.
TEST(Races, AReplayUsesTheRecordedOptions) {
  weft::Result racy = weft::explore(lost_update, with(weft::Races::kReport, weft::PreemptOn::kRacy));
  ASSERT_EQ(racy.bugs().size(), 1u) << racy.report();
  for (const weft::Options& given : {weft::Options{}, with(weft::Races::kFail, weft::PreemptOn::kSync)}) {
    weft::Result again = weft::replay(lost_update, racy.bugs()[0].schedule(), given);
    ASSERT_TRUE(again.failed()) << again.error() << again.report();
    EXPECT_EQ(again.bugs()[0].kind(), weft::BugKind::kAssertion);
    EXPECT_EQ(again.bugs()[0].schedule(), racy.bugs()[0].schedule());
  }
  // An option weft::replay does not take (weft run's): one line, no execution.
  const std::string body = "weft3." + racy.bugs()[0].schedule().substr(6, 16) + ".dfs.0.no-preempt-in=f..0";
  char check[9];  // FNV-1a of the body, its low 32 bits (core/schedule.cpp)
  std::uint64_t f = 0xcbf29ce484222325ull;
  for (unsigned char c : body) f = (f ^ c) * 0x100000001b3ull;
  std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(f));
  weft::Result bad = weft::replay(lost_update, body + "." + check);
  EXPECT_NE(bad.error().find("records option no-preempt-in=f, which weft::replay does not take"),
            std::string::npos) << bad.error();
  EXPECT_EQ(bad.executions(), 0u);
}

// Correct C++: locks, atomics with release/acquire, containers that allocate and free on
// several threads (freed memory reused by another thread is not a race).
void correct_cpp() {
  std::mutex m;
  std::vector<std::string> log;
  std::atomic<bool> ready{false};
  int payload = 0;
  std::thread producer([&] {
    payload = 42;
    ready.store(true, std::memory_order_release);
    for (int i = 0; i < 3; ++i) {
      std::lock_guard<std::mutex> g(m);
      log.push_back("producer " + std::to_string(i));  // reallocates: frees old buffers
    }
  });
  std::thread consumer([&] {
    while (!ready.load(std::memory_order_acquire)) std::this_thread::yield();
    WEFT_ASSERT(payload == 42);
    std::lock_guard<std::mutex> g(m);
    log.push_back("consumer");
  });
  producer.join();
  consumer.join();
  WEFT_ASSERT(log.size() == 4);
}

TEST(Races, CorrectCodeIsNeverReported) {
  weft::Options o = with(weft::Races::kFail, weft::PreemptOn::kRacy, "pb:2");
  weft::Result r = weft::explore(correct_cpp, o);
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete());
  o.strategy = "random";
  o.executions = 300;
  o.seed = 1;
  r = weft::explore(correct_cpp, o);
  EXPECT_TRUE(r.ok()) << r.report();
}

}  // namespace
