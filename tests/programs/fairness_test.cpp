// Fair scheduling and livelock (CHESS section 4.3): spin loops that wait for another
// thread end under every schedule weft explores, so systematic strategies complete; the
// unfair schedules that starve the awaited thread are explored only with fairness off
// (and then end in a livelock report); a loop that never ends is a livelock, and one that
// spins without ever yielding is a good-samaritan violation.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <string>
#include <weft/weft.hpp>

namespace {

std::atomic<int> g_flag;
volatile int g_volatile_flag;
std::atomic<int> g_lock;
std::atomic<long> g_counter;
int g_inside;
int g_total;

weft::Options systematic(const char* strategy, bool fair = true) {
  weft::Options o;
  o.strategy = strategy;
  o.executions = 20000;
  o.max_steps = 3000;
  o.fair = fair;
  return o;
}

std::string first_message(const weft::Result& r) {
  return r.bugs().empty() ? "" : r.bugs()[0].message();
}

void run_beside(void* (*a)(void*), void* (*b)(void*)) {
  pthread_t x, y;
  pthread_create(&x, nullptr, a, nullptr);
  pthread_create(&y, nullptr, b, nullptr);
  pthread_join(x, nullptr);
  pthread_join(y, nullptr);
}

// --- waiting for a flag: with sched_yield, and with bare loads --------------------------
void* set_flag(void*) {
  g_flag.store(1);
  return nullptr;
}
void* wait_yielding(void*) {
  while (g_flag.load() == 0) sched_yield();
  return nullptr;
}
void* wait_loading(void*) {
  while (g_flag.load() == 0) {
  }
  return nullptr;
}
void* set_volatile(void*) {
  g_volatile_flag = 1;
  return nullptr;
}
void* wait_volatile(void*) {
  while (g_volatile_flag == 0) {
  }
  return nullptr;
}
auto yield_wait = [] {
  g_flag = 0;
  run_beside(wait_yielding, set_flag);
};
auto load_wait = [] {
  g_flag = 0;
  run_beside(wait_loading, set_flag);
};
auto volatile_wait = [] {
  g_volatile_flag = 0;
  run_beside(wait_volatile, set_volatile);
};

// One livelock report, and what its message says.
void expect_livelock(const weft::Result& r, const std::string& says) {
  ASSERT_EQ(r.bugs().size(), 1u) << r.report();
  EXPECT_EQ(r.bugs()[0].kind(), weft::BugKind::kLivelock);
  EXPECT_NE(first_message(r).find(says), std::string::npos) << first_message(r);
}

void expect_completes(const char* strategy, void (*body)()) {
  weft::Result r = weft::explore(body, systematic(strategy));
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << strategy << ": " << r.report();
}

// Each spin's first Fairness::kFreeYields yields are free, so a full dfs interleaves the
// other threads' steps among them (thousands of equivalent schedules, until partial-order
// reduction prunes them); preemption bounds complete.
TEST(Fairness, YieldingSpinCompletesEachPreemptionBound) {
  expect_completes("pb:2", +yield_wait);
  expect_completes("db:2", +yield_wait);
}

TEST(Fairness, SpinOfLoadsIsDetectedAndCompletes) {
  expect_completes("pb:2", +load_wait);
  expect_completes("pb:2", +volatile_wait);
}

TEST(Fairness, WithoutFairnessTheStarvingScheduleIsALivelock) {
  // The default (non-preemptive) schedule runs the spinner first, forever.
  for (auto body : {+yield_wait, +load_wait}) {
    weft::Result r = weft::explore(body, systematic("dfs", /*fair=*/false));
    expect_livelock(r, "fair scheduling off");
    if (r.failed()) {
      EXPECT_EQ(r.bugs()[0].execution(), 1u);
    }
  }
}

TEST(Fairness, BoundedSpinPhaseStaysExplorable) {
  // A waiter that spins a few times before it sleeps: the schedule where it gets all the
  // way to sleep before the store is a real (lost wakeup) bug, and must stay reachable.
  weft::Result r = weft::explore(
      [] {
        g_flag = 0;
        run_beside(
            [](void*) -> void* {
              for (int i = 0; i < 4 && g_flag.load() == 0; ++i) sched_yield();
              WEFT_ASSERT(g_flag.load() == 1);  // "surely set by now"
              return nullptr;
            },
            set_flag);
      },
      systematic("pb"));
  ASSERT_EQ(r.bugs().size(), 1u) << r.report();
  EXPECT_EQ(r.bugs()[0].kind(), weft::BugKind::kAssertion);
  EXPECT_EQ(r.bugs()[0].preemptions(), 0u) << r.report();
}

// --- a spin lock that is correct, and terminates only under fair schedules -------------
void* locked_increments(void*) {
  for (int i = 0; i < 2; ++i) {
    while (g_lock.exchange(1) != 0)
      while (g_lock.load() != 0) sched_yield();
    ++g_inside;
    WEFT_ASSERT(g_inside == 1);
    ++g_total;
    --g_inside;
    g_lock.store(0);
  }
  return nullptr;
}
auto spin_lock = [] {
  g_lock = 0;
  g_inside = g_total = 0;
  run_beside(locked_increments, locked_increments);
  WEFT_ASSERT(g_total == 4);
};

TEST(Fairness, CorrectSpinLockCompletesPreemptionBoundTwo) { expect_completes("pb:2", +spin_lock); }

TEST(Fairness, SpinLockStarvesWithoutFairness) {
  weft::Options o = systematic("pb:2", /*fair=*/false);
  expect_livelock(weft::explore(spin_lock, o), "fair scheduling off");
}

// --- loops that never end ---------------------------------------------------------------
void* yield_forever(void*) {
  while (g_flag.load() == 0) sched_yield();  // nobody ever sets it
  return nullptr;
}
void* count_forever(void*) {
  // Busy, and never yields: each round stores, so it is not a read-only spin either.
  while (g_flag.load() == 0) g_counter.store(g_counter.load() + 1);
  return nullptr;
}
void* add_until_set(void*) {
  // Read-modify-writes with nothing else in between: seen as a spin, so the setter runs.
  while (g_flag.load() == 0) g_counter.fetch_add(1);
  return nullptr;
}
void* idle(void*) { return nullptr; }

TEST(Fairness, EndlessYieldingLoopIsALivelock) {
  weft::Result r = weft::explore(
      [] {
        g_flag = 0;
        run_beside(yield_forever, idle);
      },
      systematic("dfs"));
  expect_livelock(r, "under fair scheduling");
  EXPECT_NE(first_message(r).find("T1"), std::string::npos) << first_message(r);
  EXPECT_NE(r.report().find("threads running at the end"), std::string::npos) << r.report();
}

TEST(Fairness, SpinningWithoutYieldingIsAGoodSamaritanViolation) {
  weft::Result r = weft::explore(
      [] {
        g_flag = 0;
        g_counter = 0;
        run_beside(count_forever, set_flag);
      },
      systematic("dfs"));
  expect_livelock(r, "good-samaritan violation: T1");
  if (r.failed()) {
    EXPECT_EQ(r.bugs()[0].execution(), 1u);
  }
}

TEST(Fairness, LoopOfReadModifyWritesIsASpin) {
  expect_completes("pb:1", +[] {
    g_flag = 0;
    g_counter = 0;
    run_beside(add_until_set, set_flag);
  });
}

}  // namespace
