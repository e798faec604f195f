// Each bug class weft must find, as a small program that has it, next to a correct twin
// that must never be reported: dfs explores the twin completely and finds nothing.
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
void expect_replays(F&& body, const weft::Result& r, weft::BugKind kind) {
  const weft::Bug& bug = r.bugs()[0];
  weft::Result again = weft::replay(body, bug.schedule());
  ASSERT_TRUE(again.error().empty()) << again.error();
  ASSERT_TRUE(again.failed()) << again.report();
  EXPECT_EQ(again.bugs()[0].kind(), kind);
  EXPECT_EQ(again.bugs()[0].message(), bug.message());
  EXPECT_EQ(again.bugs()[0].steps(), bug.steps());
}

void expect_correct(const weft::Result& r) {
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
}

// --- lost update ------------------------------------------------------------------------

auto lost_update = [] {
  int counter = 0;
  std::thread a([&] { counter++; }), b([&] { counter++; });
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
};

auto locked_update = [] {
  int counter = 0;
  std::mutex m;
  auto inc = [&] {
    std::lock_guard<std::mutex> g(m);
    counter++;
  };
  std::thread a(inc), b(inc);
  a.join();
  b.join();
  WEFT_ASSERT(counter == 2);
};

TEST(BugClasses, LostUpdateIsFoundAndReplays) {
  weft::Result r = weft::explore(lost_update, random_walk());
  expect_found(r, weft::BugKind::kAssertion);
  EXPECT_NE(r.bugs()[0].message().find("counter == 2"), std::string::npos);
  expect_replays(lost_update, r, weft::BugKind::kAssertion);
}

TEST(BugClasses, LostUpdateIsFoundByDfs) {
  expect_found(weft::explore(lost_update, dfs()), weft::BugKind::kAssertion);
}

TEST(BugClasses, LockedUpdateIsCorrect) { expect_correct(weft::explore(locked_update, dfs())); }

// --- lock-order deadlock -------------------------------------------------------------

auto lock_order_inversion = [] {
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

auto lock_order_consistent = [] {
  std::mutex a, b;
  auto work = [&] {
    std::lock_guard<std::mutex> x(a);
    std::lock_guard<std::mutex> y(b);
  };
  std::thread t1(work), t2(work);
  t1.join();
  t2.join();
};

TEST(BugClasses, LockOrderDeadlockIsFoundAndReplays) {
  weft::Result r = weft::explore(lock_order_inversion, dfs());
  expect_found(r, weft::BugKind::kDeadlock);
  expect_replays(lock_order_inversion, r, weft::BugKind::kDeadlock);
  EXPECT_NE(r.report().find("mutex-lock"), std::string::npos) << r.report();
}

TEST(BugClasses, ConsistentLockOrderIsCorrect) {
  expect_correct(weft::explore(lock_order_consistent, dfs()));
}

// --- check-then-act on an atomic -------------------------------------------------------

auto check_then_act = [] {
  std::atomic<bool> taken{false};
  std::atomic<int> winners{0};
  auto claim = [&] {
    if (!taken.load()) {
      taken.store(true);
      winners.fetch_add(1);
    }
  };
  std::thread a(claim), b(claim);
  a.join();
  b.join();
  WEFT_ASSERT(winners.load() == 1);
};

auto compare_and_act = [] {
  std::atomic<bool> taken{false};
  std::atomic<int> winners{0};
  auto claim = [&] {
    bool expected = false;
    if (taken.compare_exchange_strong(expected, true)) winners.fetch_add(1);
  };
  std::thread a(claim), b(claim);
  a.join();
  b.join();
  WEFT_ASSERT(winners.load() == 1);
};

TEST(BugClasses, CheckThenActIsFound) {
  weft::Result r = weft::explore(check_then_act, random_walk());
  expect_found(r, weft::BugKind::kAssertion);
  expect_replays(check_then_act, r, weft::BugKind::kAssertion);
}

TEST(BugClasses, CompareAndActIsCorrect) { expect_correct(weft::explore(compare_and_act, dfs())); }

// --- condition variable: lost wakeup without a predicate loop ---------------------------

auto wait_without_predicate = [] {
  std::mutex m;
  std::condition_variable cv;
  bool ready = false;
  std::thread consumer([&] {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk);  // if the notification came first, nobody wakes us
    WEFT_ASSERT(ready);
  });
  std::thread producer([&] {
    {
      std::lock_guard<std::mutex> g(m);
      ready = true;
    }
    cv.notify_one();
  });
  consumer.join();
  producer.join();
};

auto wait_with_predicate = [] {
  std::mutex m;
  std::condition_variable cv;
  bool ready = false;
  std::thread consumer([&] {
    std::unique_lock<std::mutex> lk(m);
    cv.wait(lk, [&] { return ready; });
    WEFT_ASSERT(ready);
  });
  std::thread producer([&] {
    {
      std::lock_guard<std::mutex> g(m);
      ready = true;
    }
    cv.notify_one();
  });
  consumer.join();
  producer.join();
};

TEST(BugClasses, LostWakeupIsFound) {
  weft::Result r = weft::explore(wait_without_predicate, dfs());
  expect_found(r, weft::BugKind::kDeadlock);
  expect_replays(wait_without_predicate, r, weft::BugKind::kDeadlock);
}

TEST(BugClasses, PredicateWaitIsCorrect) {
  expect_correct(weft::explore(wait_with_predicate, dfs()));
}

// --- a null dereference reached under one interleaving ---------------------------------

struct Config {
  int value = 42;
};

auto publish_before_init = [] {
  std::atomic<bool> ready{false};
  Config* volatile config = nullptr;
  Config storage;
  std::thread writer([&] {
    ready.store(true);  // published before the pointer is set
    config = &storage;
  });
  std::thread reader([&] {
    if (ready.load()) WEFT_ASSERT(config->value == 42);
  });
  writer.join();
  reader.join();
};

auto publish_after_init = [] {
  std::atomic<bool> ready{false};
  Config* volatile config = nullptr;
  Config storage;
  std::thread writer([&] {
    config = &storage;
    ready.store(true);
  });
  std::thread reader([&] {
    if (ready.load()) WEFT_ASSERT(config->value == 42);
  });
  writer.join();
  reader.join();
};

TEST(BugClasses, NullDereferenceIsFoundAsACrash) {
  weft::Result r = weft::explore(publish_before_init, dfs());
  expect_found(r, weft::BugKind::kCrash);
  EXPECT_NE(r.bugs()[0].message().find("SIGSEGV"), std::string::npos) << r.report();
  expect_replays(publish_before_init, r, weft::BugKind::kCrash);
}

TEST(BugClasses, PublishAfterInitIsCorrect) {
  expect_correct(weft::explore(publish_after_init, dfs()));
}

// --- an exception thrown in a thread under one interleaving ----------------------------

auto throw_when_early = [] {
  std::atomic<int> items{0};
  std::thread producer([&] { items.store(1); });
  std::thread consumer([&] {
    if (items.load() == 0) throw std::runtime_error("queue empty");
  });
  producer.join();
  consumer.join();
};

auto wait_for_item = [] {
  std::atomic<int> items{0};
  std::thread producer([&] { items.store(1); });
  std::thread consumer([&] {
    while (items.load() == 0) std::this_thread::yield();
  });
  producer.join();
  consumer.join();
};

TEST(BugClasses, ExceptionInAThreadIsFound) {
  weft::Result r = weft::explore(throw_when_early, dfs());
  expect_found(r, weft::BugKind::kUncaughtException);
  EXPECT_NE(r.bugs()[0].message().find("queue empty"), std::string::npos) << r.report();
  expect_replays(throw_when_early, r, weft::BugKind::kUncaughtException);
}

TEST(BugClasses, WaitingForTheItemIsCorrectWithinABudget) {
  // The consumer's spin loop makes the schedule space infinite (unfair schedules): a
  // bounded random search must find nothing.
  weft::Result r = weft::explore(wait_for_item, {.strategy = "random", .executions = 2000, .seed = 3});
  EXPECT_TRUE(r.ok()) << r.report();
}

}  // namespace
