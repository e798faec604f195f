// Each bug class weft must find, as a small program that has it, next to a correct twin
// that must never be reported: dfs explores the twin completely and finds nothing.
//
// Every instrumented plain access is a scheduling point (see runtime/access_policy.hpp),
// so the twins are written with raw pthreads and globals to keep their schedule spaces
// small enough for a complete dfs; the std::thread versions of the bugs are found too.
#include <gtest/gtest.h>
#include <pthread.h>
#include <weft/weft.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace {

weft::Options dfs() { return {.strategy = "dfs", .executions = 0}; }
weft::Options random_walk() { return {.strategy = "random", .executions = 20000, .seed = 7}; }

void expect_found(const weft::Result& r, weft::BugKind kind) {
  ASSERT_TRUE(r.error().empty()) << r.error();
  ASSERT_FALSE(r.ok()) << r.report();
  ASSERT_EQ(r.bugs().size(), 1u);
  EXPECT_EQ(r.bugs()[0].kind(), kind) << r.report();
}

template <typename F>
void expect_replays(F&& body, const weft::Result& r) {
  const weft::Bug& bug = r.bugs()[0];
  for (int i = 0; i < 3; ++i) {  // exactly, every time
    weft::Result again = weft::replay(body, bug.schedule());
    ASSERT_TRUE(again.error().empty()) << again.error();
    ASSERT_TRUE(again.failed()) << again.report();
    EXPECT_EQ(again.bugs()[0].kind(), bug.kind());
    EXPECT_EQ(again.bugs()[0].message(), bug.message());
    EXPECT_EQ(again.bugs()[0].steps(), bug.steps());
    EXPECT_EQ(again.bugs()[0].schedule(), bug.schedule());
  }
}

void expect_correct(const weft::Result& r) {
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
  EXPECT_GT(r.executions(), 1u);
}

// Runs two threads with the given start routines and joins them.
void run2(void* (*a)(void*), void* (*b)(void*)) {
  pthread_t ta, tb;
  pthread_create(&ta, nullptr, a, nullptr);
  pthread_create(&tb, nullptr, b, nullptr);
  pthread_join(ta, nullptr);
  pthread_join(tb, nullptr);
}

// --- lost update ------------------------------------------------------------------------

int g_counter;
pthread_mutex_t g_m1 = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t g_m2 = PTHREAD_MUTEX_INITIALIZER;

void* increment(void*) {
  g_counter++;
  return nullptr;
}
void* locked_increment(void*) {
  pthread_mutex_lock(&g_m1);
  g_counter++;
  pthread_mutex_unlock(&g_m1);
  return nullptr;
}

auto lost_update = [] {
  g_counter = 0;
  run2(increment, increment);
  WEFT_ASSERT(g_counter == 2);
};
auto locked_update = [] {
  g_counter = 0;
  run2(locked_increment, locked_increment);
  WEFT_ASSERT(g_counter == 2);
};

// The issue's own example: std::thread, a lambda, a counter on the stack.
auto lost_update_std = [] {
  int counter = 0;
  std::thread a([&] { counter++; }), b([&] { counter++; });
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
};

TEST(BugClasses, LostUpdateIsFoundAndReplays) {
  weft::Result r = weft::explore(lost_update, dfs());
  expect_found(r, weft::BugKind::kAssertion);
  EXPECT_NE(r.bugs()[0].message().find("g_counter == 2"), std::string::npos);
  expect_replays(lost_update, r);
}

TEST(BugClasses, LostUpdateWithStdThreadIsFoundByRandomWalkAndReplays) {
  weft::Result r = weft::explore(lost_update_std, random_walk());
  expect_found(r, weft::BugKind::kAssertion);
  expect_replays(lost_update_std, r);
}

TEST(BugClasses, LockedUpdateIsCorrect) { expect_correct(weft::explore(locked_update, dfs())); }

// --- lock-order deadlock -------------------------------------------------------------

void* lock_ab(void*) {
  pthread_mutex_lock(&g_m1);
  pthread_mutex_lock(&g_m2);
  pthread_mutex_unlock(&g_m2);
  pthread_mutex_unlock(&g_m1);
  return nullptr;
}
void* lock_ba(void*) {
  pthread_mutex_lock(&g_m2);
  pthread_mutex_lock(&g_m1);
  pthread_mutex_unlock(&g_m1);
  pthread_mutex_unlock(&g_m2);
  return nullptr;
}

auto lock_order_inversion = [] { run2(lock_ab, lock_ba); };
auto lock_order_consistent = [] { run2(lock_ab, lock_ab); };

TEST(BugClasses, LockOrderDeadlockIsFoundAndReplays) {
  weft::Result r = weft::explore(lock_order_inversion, dfs());
  expect_found(r, weft::BugKind::kDeadlock);
  expect_replays(lock_order_inversion, r);
  const std::string report = r.report();
  EXPECT_NE(report.find("mutex-lock"), std::string::npos) << report;
  EXPECT_NE(report.find("blocked"), std::string::npos) << report;
}

TEST(BugClasses, ConsistentLockOrderIsCorrect) {
  expect_correct(weft::explore(lock_order_consistent, dfs()));
}

TEST(BugClasses, StdMutexDeadlockIsFound) {
  auto body = [] {
    std::mutex a, b;
    std::thread t1([&] {
      std::lock_guard<std::mutex> x(a);
      std::lock_guard<std::mutex> y(b);
    });
    std::thread t2([&] {
      std::lock_guard<std::mutex> y(b);
      std::lock_guard<std::mutex> x(a);
    });
    t1.join();
    t2.join();
  };
  weft::Result r = weft::explore(body, random_walk());
  expect_found(r, weft::BugKind::kDeadlock);
  expect_replays(body, r);
}

// --- check-then-act on an atomic -------------------------------------------------------

std::atomic<bool> g_taken;
std::atomic<int> g_winners;

void* check_then_claim(void*) {
  if (!g_taken.load()) {
    g_taken.store(true);
    g_winners.fetch_add(1);
  }
  return nullptr;
}
void* cas_claim(void*) {
  bool expected = false;
  if (g_taken.compare_exchange_strong(expected, true)) g_winners.fetch_add(1);
  return nullptr;
}

auto check_then_act = [] {
  g_taken = false;
  g_winners = 0;
  run2(check_then_claim, check_then_claim);
  WEFT_ASSERT(g_winners.load() == 1);
};
auto compare_and_act = [] {
  g_taken = false;
  g_winners = 0;
  run2(cas_claim, cas_claim);
  WEFT_ASSERT(g_winners.load() == 1);
};

TEST(BugClasses, CheckThenActIsFoundAndReplays) {
  weft::Result r = weft::explore(check_then_act, dfs());
  expect_found(r, weft::BugKind::kAssertion);
  expect_replays(check_then_act, r);
}

TEST(BugClasses, CompareAndActIsCorrect) { expect_correct(weft::explore(compare_and_act, dfs())); }

// --- condition variable: lost wakeup without a predicate loop ---------------------------

pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
bool g_ready;

void* wait_once(void*) {
  pthread_mutex_lock(&g_m1);
  pthread_cond_wait(&g_cv, &g_m1);  // if the signal came first, nobody wakes us
  pthread_mutex_unlock(&g_m1);
  return nullptr;
}
void* wait_for_ready(void*) {
  pthread_mutex_lock(&g_m1);
  while (!g_ready) pthread_cond_wait(&g_cv, &g_m1);
  pthread_mutex_unlock(&g_m1);
  return nullptr;
}
void* make_ready(void*) {
  pthread_mutex_lock(&g_m1);
  g_ready = true;
  pthread_cond_signal(&g_cv);
  pthread_mutex_unlock(&g_m1);
  return nullptr;
}

auto lost_wakeup = [] {
  g_ready = false;
  run2(wait_once, make_ready);
};
auto predicate_wait = [] {
  g_ready = false;
  run2(wait_for_ready, make_ready);
};

TEST(BugClasses, LostWakeupIsFoundAsADeadlockAndReplays) {
  weft::Result r = weft::explore(lost_wakeup, dfs());
  expect_found(r, weft::BugKind::kDeadlock);
  expect_replays(lost_wakeup, r);
  EXPECT_NE(r.report().find("waits on a condition variable, never signalled"), std::string::npos) << r.report();
  EXPECT_NE(r.report().find("cond-wait"), std::string::npos) << r.report();
}

TEST(BugClasses, PredicateWaitIsCorrect) { expect_correct(weft::explore(predicate_wait, dfs())); }

// --- a null dereference reached under one interleaving ---------------------------------

struct Config {
  int value = 42;
};
Config g_storage;
Config* volatile g_config;
std::atomic<bool> g_published;

void* publish_early(void*) {
  g_published.store(true);  // published before the pointer is set
  g_config = &g_storage;
  return nullptr;
}
void* publish_late(void*) {
  g_config = &g_storage;
  g_published.store(true);
  return nullptr;
}
void* use_config(void*) {
  if (g_published.load()) WEFT_ASSERT(g_config->value == 42);
  return nullptr;
}

auto null_dereference = [] {
  g_config = nullptr;
  g_published = false;
  run2(publish_early, use_config);
};
auto no_null_dereference = [] {
  g_config = nullptr;
  g_published = false;
  run2(publish_late, use_config);
};

TEST(BugClasses, NullDereferenceIsFoundAsACrashAndReplays) {
  weft::Result r = weft::explore(null_dereference, dfs());
  expect_found(r, weft::BugKind::kCrash);
  EXPECT_NE(r.bugs()[0].message().find("SIGSEGV"), std::string::npos) << r.report();
  expect_replays(null_dereference, r);
}

TEST(BugClasses, PublishingAfterInitIsCorrect) {
  expect_correct(weft::explore(no_null_dereference, dfs()));
}

// --- an exception thrown in a thread under one interleaving ----------------------------

std::atomic<int> g_items;

void* produce(void*) {
  g_items.store(1);
  return nullptr;
}
void* consume_or_throw(void*) {
  if (g_items.load() == 0) throw std::runtime_error("queue empty");
  return nullptr;
}
void* consume_or_skip(void*) {
  if (g_items.load() == 0) return nullptr;
  g_items.store(0);
  return nullptr;
}

auto throws_when_early = [] {
  g_items = 0;
  run2(produce, consume_or_throw);
};
auto skips_when_early = [] {
  g_items = 0;
  run2(produce, consume_or_skip);
};

TEST(BugClasses, ExceptionInAThreadIsFoundAndReplays) {
  weft::Result r = weft::explore(throws_when_early, dfs());
  expect_found(r, weft::BugKind::kUncaughtException);
  EXPECT_NE(r.bugs()[0].message().find("queue empty"), std::string::npos) << r.report();
  EXPECT_NE(r.bugs()[0].message().find("std::runtime_error"), std::string::npos) << r.report();
  expect_replays(throws_when_early, r);
}

TEST(BugClasses, ExceptionInAStdThreadIsFound) {
  static const int kThrowLine = __LINE__ + 6;
  auto body = [] {
    std::atomic<int> items{0};
    std::thread producer([&] { items.store(1); });
    std::thread consumer([&] {
      const bool empty = items.load() == 0;  // its last step: not the throw's line
      if (empty) throw std::runtime_error("queue empty");
    });
    producer.join();
    consumer.join();
  };
  weft::Result r = weft::explore(body, random_walk());
  expect_found(r, weft::BugKind::kUncaughtException);
  EXPECT_NE(r.bugs()[0].message().find("queue empty"), std::string::npos) << r.report();
  // The report names the throw.
  EXPECT_NE(r.report().find("bug_classes_test.cpp:" + std::to_string(kThrowLine)),
            std::string::npos)
      << r.report();
}

TEST(BugClasses, SkippingWhenEarlyIsCorrect) {
  expect_correct(weft::explore(skips_when_early, dfs()));
}

}  // namespace
