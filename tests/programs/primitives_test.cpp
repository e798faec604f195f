// Every primitive weft claims to control, each as a correct use that weft explores without
// a report (dfs to completion where the space allows, else a fixed random budget) and, where
// the primitive can be misused, a buggy twin that weft finds and replays exactly.
//
// Every instrumented plain access is a scheduling point (runtime/access_policy.hpp) and dfs
// runs every interleaving, so the programs are tiny: raw pthreads over globals, the test
// body itself usually one of the two parties, the std:: primitive under test a global too.
// Objects whose state lives in user memory (C++20 latch, barrier, semaphores, atomic wait)
// are made afresh in each execution.
#include <errno.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <weft/weft.hpp>

#include <atomic>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <latch>
#include <mutex>
#include <optional>
#include <semaphore>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <thread>

using namespace std::chrono_literals;

namespace {

weft::Options dfs() { return {.strategy = "dfs", .executions = 0}; }
weft::Options sampled(std::uint64_t executions) {
  return {.strategy = "random", .executions = executions, .seed = 11};
}

void expect_found(const weft::Result& r, weft::BugKind kind) {
  ASSERT_TRUE(r.error().empty()) << r.error();
  ASSERT_FALSE(r.ok()) << r.report();
  ASSERT_EQ(r.bugs().size(), 1u);
  EXPECT_EQ(r.bugs()[0].kind(), kind) << r.report();
}

// The bug's schedule runs the same execution again: same kind, message and length.
template <typename F>
void expect_replays(F&& body, const weft::Result& r, const weft::Options& options = {}) {
  const weft::Bug& bug = r.bugs()[0];
  weft::Result again = weft::replay(body, bug.schedule(), options);
  ASSERT_TRUE(again.error().empty()) << again.error();
  ASSERT_TRUE(again.failed()) << again.report();
  EXPECT_EQ(again.bugs()[0].kind(), bug.kind());
  EXPECT_EQ(again.bugs()[0].message(), bug.message());
  EXPECT_EQ(again.bugs()[0].steps(), bug.steps());
}

// A buggy program: found (by dfs unless told otherwise), then replayed.
template <typename F>
weft::Result expect_bug(F&& body, weft::BugKind kind, const weft::Options& options = dfs()) {
  weft::Result r = weft::explore(body, options);
  expect_found(r, kind);
  if (r.failed()) expect_replays(body, r);
  return r;
}

// A correct program, every interleaving run.
template <typename F>
void expect_correct(F&& body) {
  weft::Result r = weft::explore(body, dfs());
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
  EXPECT_GT(r.executions(), 1u);
}

// A correct program whose space is too large for dfs: a fixed random budget, no report.
template <typename F>
void expect_no_bug_sampled(F&& body, std::uint64_t executions = 300) {
  weft::Result r = weft::explore(body, sampled(executions));
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), executions);
}

// A program with one execution only (one thread, or nothing to choose).
template <typename F>
void expect_runs_clean(F&& body) {
  weft::Result r = weft::explore(body, dfs());
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
}

// Whether the first bug's interleaving has a step `op` (false when nothing was found).
bool trace_has(const weft::Result& r, const std::string& op) {
  if (r.bugs().empty()) return false;
  for (const weft::Step& s : r.bugs()[0].trace())
    if (s.op == op) return true;
  return false;
}

// The first bug's message, or "" when nothing was found.
std::string first_message(const weft::Result& r) {
  return r.bugs().empty() ? "" : r.bugs()[0].message();
}

// `other` on a new thread while the body runs `mine`, then a join.
void beside(void* (*other)(void*), void* (*mine)(void*)) {
  pthread_t t;
  pthread_create(&t, nullptr, other, nullptr);
  mine(nullptr);
  pthread_join(t, nullptr);
}

// Two new threads while the body runs `mine`.
void beside2(void* (*a)(void*), void* (*b)(void*), void* (*mine)(void*)) {
  pthread_t ta, tb;
  pthread_create(&ta, nullptr, a, nullptr);
  pthread_create(&tb, nullptr, b, nullptr);
  mine(nullptr);
  pthread_join(ta, nullptr);
  pthread_join(tb, nullptr);
}

// An absolute deadline far in the future (2096) on either clock: a timed wait that returns
// did not wait for real time to pass.
const timespec kFarFuture{4'000'000'000, 0};

int g_counter;
int g_value;
std::atomic<int> g_a;
std::atomic<int> g_b;

// =======================================================================================
// Raw pthreads: create, join, exit, detach
// =======================================================================================

void* returns_42(void*) { return reinterpret_cast<void*>(42); }

struct CountsUnwinding {
  ~CountsUnwinding() { g_a.store(1); }
};
void exit_from_a_callee() {
  CountsUnwinding c;  // destroyed by pthread_exit's unwinding, under control
  pthread_exit(reinterpret_cast<void*>(7));
}
void* exits_with_7(void*) {
  exit_from_a_callee();
  return nullptr;
}

auto join_sees_return_value = [] {
  pthread_t t;
  WEFT_ASSERT(pthread_create(&t, nullptr, returns_42, nullptr) == 0);
  void* ret = nullptr;
  WEFT_ASSERT(pthread_join(t, &ret) == 0);
  WEFT_ASSERT(ret == reinterpret_cast<void*>(42));
};
auto join_sees_exit_value = [] {
  g_a = 0;
  pthread_t t;
  pthread_create(&t, nullptr, exits_with_7, nullptr);
  void* ret = nullptr;
  WEFT_ASSERT(pthread_join(t, &ret) == 0);
  WEFT_ASSERT(ret == reinterpret_cast<void*>(7));
  WEFT_ASSERT(g_a.load() == 1);  // the unwinding ran before the thread ended
};
// The bug: the value is read before the thread is joined.
auto exit_value_read_early = [] {
  g_a = 0;
  pthread_t t;
  pthread_create(&t, nullptr, exits_with_7, nullptr);
  WEFT_ASSERT(g_a.load() == 1);
  pthread_join(t, nullptr);
};

TEST(Threads, JoinSeesTheReturnValue) { expect_correct(join_sees_return_value); }
TEST(Threads, JoinSeesThePthreadExitValue) { expect_correct(join_sees_exit_value); }
TEST(Threads, ReadingBeforeJoinIsFound) {
  expect_bug(exit_value_read_early, weft::BugKind::kAssertion);
}

sem_t g_done;
void* writes_value(void*) {
  g_value = 1;
  sem_post(&g_done);
  return nullptr;
}

auto detach_then_wait = [] {
  g_value = 0;
  sem_init(&g_done, 0, 0);
  pthread_t t;
  pthread_create(&t, nullptr, writes_value, nullptr);
  WEFT_ASSERT(pthread_detach(t) == 0);
  sem_wait(&g_done);
  WEFT_ASSERT(g_value == 1);
};
auto created_detached_then_wait = [] {
  g_value = 0;
  sem_init(&g_done, 0, 0);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  pthread_create(&t, &attr, writes_value, nullptr);
  pthread_attr_destroy(&attr);
  WEFT_ASSERT(pthread_join(t, nullptr) == EINVAL);  // not joinable
  sem_wait(&g_done);
  WEFT_ASSERT(g_value == 1);
};
// The bug: reads what the detached thread writes without waiting for it.
auto detach_and_read = [] {
  g_value = 0;
  sem_init(&g_done, 0, 0);
  pthread_t t;
  pthread_create(&t, nullptr, writes_value, nullptr);
  pthread_detach(t);
  WEFT_ASSERT(g_value == 1);
};

TEST(Threads, DetachedThreadWaitedForIsCorrect) { expect_correct(detach_then_wait); }
TEST(Threads, CreatedDetachedIsCorrect) { expect_correct(created_detached_then_wait); }
TEST(Threads, ReadingADetachedThreadsResultEarlyIsFound) {
  expect_bug(detach_and_read, weft::BugKind::kAssertion);
}

// pthread_exit from the body ends thread 0 only: the other thread runs to completion.
void* sets_b(void*) {
  g_b.store(1);
  return nullptr;
}
auto body_exits = [] {
  g_b = 0;
  pthread_t t;
  pthread_create(&t, nullptr, sets_b, nullptr);
  pthread_exit(nullptr);
};

TEST(Threads, PthreadExitFromTheBodyIsCorrect) { expect_correct(body_exits); }

// =======================================================================================
// std::thread
// =======================================================================================

auto std_threads = [] {
  std::atomic<int> n{0};
  std::thread a([&] { n.fetch_add(1); });
  std::thread b([&] { n.fetch_add(2); });
  a.join();
  b.join();
  WEFT_ASSERT(n.load() == 3);
};
auto std_thread_detached = [] {  // the bug: no wait for the detached thread
  g_a = 0;
  std::thread t([] { g_a.store(1); });
  t.detach();
  WEFT_ASSERT(g_a.load() == 1);
};

TEST(StdThread, JoinedThreadsAreCorrect) { expect_no_bug_sampled(std_threads); }
TEST(StdThread, ReadingADetachedThreadsResultEarlyIsFound) {
  expect_bug(std_thread_detached, weft::BugKind::kAssertion, sampled(300));
}

// =======================================================================================
// std::mutex, std::recursive_mutex, std::timed_mutex
// =======================================================================================

std::mutex g_mutex;

void* std_locked_increment(void*) {
  std::lock_guard<std::mutex> guard(g_mutex);
  g_counter++;
  return nullptr;
}
void* std_try_increment(void*) {
  if (g_mutex.try_lock()) {
    g_counter++;
    g_mutex.unlock();
  }
  return nullptr;
}

auto std_mutex_counter = [] {
  g_counter = 0;
  beside(std_locked_increment, std_locked_increment);
  WEFT_ASSERT(g_counter == 2);
};
auto std_try_lock_counter = [] {  // the bug: assumes try_lock succeeds
  g_counter = 0;
  beside(std_try_increment, std_try_increment);
  WEFT_ASSERT(g_counter == 2);
};
auto std_mutex_relock = [] {  // the bug: a std::mutex locked again by its owner
  std::lock_guard<std::mutex> a(g_mutex);
  std::lock_guard<std::mutex> b(g_mutex);
};

TEST(StdMutex, LockedCounterIsCorrect) { expect_correct(std_mutex_counter); }
TEST(StdMutex, FailingTryLockIsFound) {
  expect_bug(std_try_lock_counter, weft::BugKind::kAssertion);
}
TEST(StdMutex, RelockIsASelfDeadlock) { expect_bug(std_mutex_relock, weft::BugKind::kDeadlock); }

std::recursive_mutex g_rmutex;

void* recursive_relock(void*) {
  std::lock_guard<std::recursive_mutex> outer(g_rmutex);
  WEFT_ASSERT(g_rmutex.try_lock());  // its owner may always lock it again
  g_rmutex.unlock();
  return nullptr;
}
void* recursive_unbalanced(void*) {
  g_rmutex.lock();
  g_rmutex.lock();
  g_rmutex.unlock();  // one unlock short: still held when the thread ends
  return nullptr;
}

auto recursive_counter = [] { beside(recursive_relock, recursive_relock); };
auto recursive_left_locked = [] { beside(recursive_unbalanced, recursive_relock); };

TEST(StdRecursiveMutex, RelockingIsCorrect) { expect_correct(recursive_counter); }
TEST(StdRecursiveMutex, UnbalancedUnlockIsADeadlock) {
  expect_bug(recursive_left_locked, weft::BugKind::kDeadlock);
}

std::timed_mutex g_tmutex;

void* timed_holder(void*) {
  g_tmutex.lock();
  g_tmutex.unlock();
  return nullptr;
}
void* timed_holder_forgets(void*) {
  g_tmutex.lock();
  return nullptr;
}
// Times out only when no other thread can run: never while the holder can still unlock.
void* try_lock_for_an_hour(void*) {
  WEFT_ASSERT(g_tmutex.try_lock_for(1h));
  g_tmutex.unlock();
  return nullptr;
}
void* try_lock_until_next_year(void*) {
  WEFT_ASSERT(g_tmutex.try_lock_until(std::chrono::system_clock::now() + 8760h));
  g_tmutex.unlock();
  return nullptr;
}

auto timed_mutex_for = [] { beside(timed_holder, try_lock_for_an_hour); };
auto timed_mutex_until = [] { beside(timed_holder, try_lock_until_next_year); };
auto timed_mutex_times_out = [] { beside(timed_holder_forgets, try_lock_for_an_hour); };

TEST(StdTimedMutex, TryLockForTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(timed_mutex_for);
}
TEST(StdTimedMutex, TryLockUntilTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(timed_mutex_until);
}
TEST(StdTimedMutex, TimeoutAfterAForgottenUnlockIsFound) {
  weft::Result r = expect_bug(timed_mutex_times_out, weft::BugKind::kAssertion);
  EXPECT_NE(first_message(r).find("try_lock_for"), std::string::npos) << r.report();
}

// =======================================================================================
// std::shared_mutex, std::shared_timed_mutex
// =======================================================================================

std::shared_mutex g_smutex;

void* shared_reader(void*) {
  std::shared_lock<std::shared_mutex> lock(g_smutex);
  WEFT_ASSERT(g_b.load() == 0);
  return nullptr;
}
void* exclusive_writer(void*) {
  std::unique_lock<std::shared_mutex> lock(g_smutex);
  g_b.store(1);
  g_b.store(0);
  return nullptr;
}
void* try_reader(void*) {
  if (g_smutex.try_lock_shared()) {
    WEFT_ASSERT(g_b.load() == 0);
    g_smutex.unlock_shared();
  }
  return nullptr;
}
void* try_writer(void*) {
  if (g_smutex.try_lock()) {
    g_b.store(1);
    g_b.store(0);
    g_smutex.unlock();
  }
  return nullptr;
}
void* reader_assumed_alone(void*) {  // the bug: assumes readers exclude each other
  std::shared_lock<std::shared_mutex> lock(g_smutex);
  WEFT_ASSERT(g_a.fetch_add(1) == 0);
  g_a.fetch_sub(1);
  return nullptr;
}

auto reader_and_writer = [] {
  g_b = 0;
  beside(exclusive_writer, shared_reader);
};
auto try_reader_and_writer = [] {
  g_b = 0;
  beside(try_writer, try_reader);
};
auto readers_assumed_alone = [] {
  g_a = 0;
  beside(reader_assumed_alone, reader_assumed_alone);
};
auto shared_upgrade = [] {  // the bug: a reader upgrading in place waits for itself
  g_smutex.lock_shared();
  g_smutex.lock();
};

TEST(StdSharedMutex, WriterExcludesReaderIsCorrect) { expect_correct(reader_and_writer); }
TEST(StdSharedMutex, TryLockSharedAndTryLockAreCorrect) { expect_correct(try_reader_and_writer); }
TEST(StdSharedMutex, TwoReadersInsideAtOnceAreFound) {
  expect_bug(readers_assumed_alone, weft::BugKind::kAssertion);
}
TEST(StdSharedMutex, UpgradeInPlaceIsADeadlock) {
  expect_bug(shared_upgrade, weft::BugKind::kDeadlock);
}

std::shared_timed_mutex g_stmutex;

void* timed_shared_reader(void*) {
  WEFT_ASSERT(g_stmutex.try_lock_shared_for(1h));
  g_stmutex.unlock_shared();
  return nullptr;
}
void* timed_exclusive_writer(void*) {
  WEFT_ASSERT(g_stmutex.try_lock_for(1h));
  g_stmutex.unlock();
  return nullptr;
}
auto shared_timed = [] { beside(timed_shared_reader, timed_exclusive_writer); };

TEST(StdSharedTimedMutex, TimedLocksTimeOutOnlyWhenNothingElseCanRun) {
  expect_correct(shared_timed);
}

// =======================================================================================
// std::condition_variable
// =======================================================================================

std::condition_variable g_cv;
bool g_ready;

void* cv_notify_one(void*) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_ready = true;
  }
  g_cv.notify_one();
  return nullptr;
}
void* cv_notify_all(void*) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_ready = true;
  }
  g_cv.notify_all();
  return nullptr;
}
void* cv_notify_without_state(void*) {  // the bug: the waiter's predicate never holds
  g_cv.notify_one();
  return nullptr;
}
void* cv_wait_predicate(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  g_cv.wait(lock, [] { return g_ready; });
  return nullptr;
}
void* cv_wait_loop(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  while (!g_ready) g_cv.wait(lock);
  return nullptr;
}
void* cv_wait_once(void*) {  // no predicate: a notify before the wait is lost
  std::unique_lock<std::mutex> lock(g_mutex);
  g_cv.wait(lock);
  return nullptr;
}
void* cv_wait_for(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  WEFT_ASSERT(g_cv.wait_for(lock, 1h, [] { return g_ready; }));
  return nullptr;
}
void* cv_wait_until(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  WEFT_ASSERT(g_cv.wait_until(lock, std::chrono::system_clock::now() + 1h, [] { return g_ready; }));
  return nullptr;
}

auto cv_predicate = [] {
  g_ready = false;
  beside(cv_notify_one, cv_wait_predicate);
};
auto cv_lost_wakeup = [] {
  g_ready = false;
  beside(cv_notify_one, cv_wait_once);
};
auto cv_two_waiters_notify_all = [] {
  g_ready = false;
  beside2(cv_wait_loop, cv_wait_predicate, cv_notify_all);
};
auto cv_two_waiters_notify_one = [] {  // the bug: notify_one where notify_all was needed
  g_ready = false;
  beside2(cv_wait_loop, cv_wait_predicate, cv_notify_one);
};
auto cv_timed_for = [] {
  g_ready = false;
  beside(cv_notify_one, cv_wait_for);
};
auto cv_timed_until = [] {
  g_ready = false;
  beside(cv_notify_one, cv_wait_until);
};
auto cv_timed_out = [] {
  g_ready = false;
  beside(cv_notify_without_state, cv_wait_for);
};
// Nobody notifies: each timed wait times out (the execution's clock moves an hour on).
auto cv_nobody_notifies = [] {
  std::unique_lock<std::mutex> lock(g_mutex);
  const auto start = std::chrono::steady_clock::now();
  WEFT_ASSERT(g_cv.wait_for(lock, 1h) == std::cv_status::timeout);
  WEFT_ASSERT(g_cv.wait_until(lock, std::chrono::system_clock::now() + 1h) ==
              std::cv_status::timeout);
  WEFT_ASSERT(!g_cv.wait_for(lock, 1h, [] { return false; }));
  WEFT_ASSERT(std::chrono::steady_clock::now() - start >= 3h);
};

TEST(StdConditionVariable, WaitWithPredicateIsCorrect) { expect_correct(cv_predicate); }
TEST(StdConditionVariable, WaitWithoutPredicateLosesAWakeup) {
  weft::Result r = expect_bug(cv_lost_wakeup, weft::BugKind::kDeadlock);
  EXPECT_TRUE(trace_has(r, "cond-signal")) << r.report();
}
TEST(StdConditionVariable, NotifyAllWakesEveryWaiter) {
  expect_no_bug_sampled(cv_two_waiters_notify_all);
}
TEST(StdConditionVariable, NotifyOneForTwoWaitersIsADeadlock) {
  expect_bug(cv_two_waiters_notify_one, weft::BugKind::kDeadlock, sampled(300));
}
TEST(StdConditionVariable, WaitForTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(cv_timed_for);
}
TEST(StdConditionVariable, WaitUntilTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(cv_timed_until);
}
TEST(StdConditionVariable, TimeoutOfAWaitNobodySatisfiesIsFound) {
  expect_bug(cv_timed_out, weft::BugKind::kAssertion);
}
TEST(StdConditionVariable, WaitNobodyNotifiesTimesOut) { expect_runs_clean(cv_nobody_notifies); }

// =======================================================================================
// std::condition_variable_any
// =======================================================================================

std::condition_variable_any g_cv_any;

void* cv_any_notify(void*) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_ready = true;
  }
  g_cv_any.notify_all();
  return nullptr;
}
void* cv_any_wait(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  g_cv_any.wait(lock, [] { return g_ready; });
  return nullptr;
}
void* cv_any_wait_once(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  g_cv_any.wait(lock);
  return nullptr;
}
void* cv_any_wait_for(void*) {
  std::unique_lock<std::mutex> lock(g_mutex);
  WEFT_ASSERT(g_cv_any.wait_for(lock, 1h, [] { return g_ready; }));
  return nullptr;
}
void* cv_any_notify_shared(void*) {
  {
    std::lock_guard<std::shared_mutex> lock(g_smutex);
    g_a.store(1);
  }
  g_cv_any.notify_one();
  return nullptr;
}
void* cv_any_wait_shared(void*) {  // any lockable: here a shared lock
  std::shared_lock<std::shared_mutex> lock(g_smutex);
  g_cv_any.wait(lock, [] { return g_a.load() == 1; });
  return nullptr;
}

auto cv_any_predicate = [] {
  g_ready = false;
  beside(cv_any_notify, cv_any_wait);
};
auto cv_any_shared_lock = [] {
  g_a = 0;
  beside(cv_any_notify_shared, cv_any_wait_shared);
};
auto cv_any_timed = [] {
  g_ready = false;
  beside(cv_any_notify, cv_any_wait_for);
};
auto cv_any_lost_wakeup = [] {
  g_ready = false;
  beside(cv_any_notify, cv_any_wait_once);
};
auto cv_any_nobody_notifies = [] {
  std::unique_lock<std::mutex> lock(g_mutex);
  WEFT_ASSERT(g_cv_any.wait_for(lock, 1h) == std::cv_status::timeout);
  WEFT_ASSERT(!g_cv_any.wait_until(lock, std::chrono::steady_clock::now() + 1h,
                                   [] { return false; }));
};

TEST(StdConditionVariableAny, WaitWithPredicateIsCorrect) {
  expect_no_bug_sampled(cv_any_predicate);
}
TEST(StdConditionVariableAny, WaitWithASharedLockIsCorrect) {
  expect_no_bug_sampled(cv_any_shared_lock);
}
TEST(StdConditionVariableAny, WaitForTimesOutOnlyWhenNothingElseCanRun) {
  expect_no_bug_sampled(cv_any_timed);
}
TEST(StdConditionVariableAny, WaitWithoutPredicateLosesAWakeup) {
  expect_bug(cv_any_lost_wakeup, weft::BugKind::kDeadlock);
}
TEST(StdConditionVariableAny, WaitNobodyNotifiesTimesOut) {
  expect_runs_clean(cv_any_nobody_notifies);
}

// =======================================================================================
// std::atomic: every operation and memory order (explored sequentially consistent)
// =======================================================================================

int g_payload;
std::atomic<int> g_flag;
std::atomic<long long> g_wide;
std::atomic<short> g_short;
std::atomic<char> g_char;
std::atomic<int*> g_ptr;
std::atomic<bool> g_bool;

void* publish(void*) {
  g_payload = 42;
  g_flag.store(1, std::memory_order_release);
  return nullptr;
}
void* consume(void*) {
  if (g_flag.load(std::memory_order_acquire) == 1) WEFT_ASSERT(g_payload == 42);
  return nullptr;
}
void* rmw_ops(void*) {
  g_wide.fetch_add(3, std::memory_order_relaxed);
  g_wide.fetch_sub(1, std::memory_order_release);
  g_short.fetch_or(6, std::memory_order_acq_rel);
  g_short.fetch_and(~2, std::memory_order_acquire);
  g_char.fetch_xor(4, std::memory_order_seq_cst);
  return nullptr;
}
void* exchange_ops(void*) {
  g_ptr.exchange(&g_payload, std::memory_order_consume);
  bool expected = false;
  if (g_bool.compare_exchange_strong(expected, true, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
    g_flag.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}
// A compare-exchange increment: weak fails only when another thread intervened.
void* cas_weak_increment(void*) {
  int v = g_a.load(std::memory_order_relaxed);
  while (!g_a.compare_exchange_weak(v, v + 1, std::memory_order_release,
                                    std::memory_order_relaxed)) {
  }
  return nullptr;
}
void* split_increment(void*) {  // the bug: an increment split into a load and a store
  int v = g_a.load(std::memory_order_acquire);
  g_a.store(v + 1, std::memory_order_release);
  return nullptr;
}

auto message_passing = [] {
  g_payload = 0;
  g_flag = 0;
  beside(publish, consume);
};
auto rmw_operations = [] {
  g_wide = 0;
  g_short = 0;
  g_char = 0;
  beside(rmw_ops, rmw_ops);
  WEFT_ASSERT(g_wide.load() == 4);
  WEFT_ASSERT(g_short.load() == 4);
  WEFT_ASSERT(g_char.load() == 0);  // xor'd twice
};
auto exchange_operations = [] {
  g_ptr = nullptr;
  g_bool = false;
  g_flag = 0;
  beside(exchange_ops, exchange_ops);
  WEFT_ASSERT(g_ptr.load() == &g_payload);
  WEFT_ASSERT(g_flag.load() == 1);  // exactly one compare-exchange won
};
auto cas_increments = [] {
  g_a = 0;
  beside(cas_weak_increment, cas_weak_increment);
  WEFT_ASSERT(g_a.load() == 2);
};
auto split_increments = [] {
  g_a = 0;
  beside(split_increment, split_increment);
  WEFT_ASSERT(g_a.load() == 2);
};

TEST(StdAtomic, ReleaseAcquireMessagePassingIsCorrect) { expect_correct(message_passing); }
TEST(StdAtomic, FetchOperationsAreCorrect) { expect_correct(rmw_operations); }
TEST(StdAtomic, ExchangeAndCompareExchangeStrongAreCorrect) {
  expect_correct(exchange_operations);
}
TEST(StdAtomic, CompareExchangeWeakLoopIsCorrect) { expect_correct(cas_increments); }
TEST(StdAtomic, SplitIncrementIsFound) {
  weft::Result r = expect_bug(split_increments, weft::BugKind::kAssertion);
  EXPECT_TRUE(trace_has(r, "atomic-load")) << r.report();
  EXPECT_TRUE(trace_has(r, "atomic-store")) << r.report();
}

// =======================================================================================
// GCC __sync and __atomic builtins in instrumented code
// =======================================================================================

long g_long;
int g_int_lock;

void* sync_builtins(void*) {
  __sync_fetch_and_add(&g_long, 1);
  __sync_sub_and_fetch(&g_long, 1);
  __sync_bool_compare_and_swap(&g_int_lock, 0, 1);
  __sync_synchronize();
  return nullptr;
}
void* atomic_builtins(void*) {
  __atomic_add_fetch(&g_long, 10, __ATOMIC_SEQ_CST);
  int expected = 0;
  __atomic_compare_exchange_n(&g_int_lock, &expected, 2, false, __ATOMIC_ACQ_REL,
                              __ATOMIC_ACQUIRE);
  return nullptr;
}
void* test_and_set_increment(void*) {  // the bug: a failed test-and-set is ignored
  if (__sync_lock_test_and_set(&g_int_lock, 1) == 0) {
    g_counter++;
    __sync_lock_release(&g_int_lock);
  }
  return nullptr;
}
void* atomic_builtin_split_increment(void*) {
  long v = __atomic_load_n(&g_long, __ATOMIC_ACQUIRE);
  __atomic_store_n(&g_long, v + 1, __ATOMIC_RELEASE);
  return nullptr;
}

auto builtins_correct = [] {
  g_long = 0;
  g_int_lock = 0;
  beside(sync_builtins, atomic_builtins);
  WEFT_ASSERT(g_long == 10);
  WEFT_ASSERT(g_int_lock == 1 || g_int_lock == 2);  // whichever compare-and-swap came first
};
auto test_and_set_counter = [] {
  g_counter = 0;
  g_int_lock = 0;
  beside(test_and_set_increment, test_and_set_increment);
  WEFT_ASSERT(g_counter == 2);
};
auto builtin_split_increments = [] {
  g_long = 0;
  beside(atomic_builtin_split_increment, atomic_builtin_split_increment);
  WEFT_ASSERT(g_long == 2);
};

TEST(Builtins, SyncAndAtomicBuiltinsAreCorrect) { expect_correct(builtins_correct); }
TEST(Builtins, FailedTestAndSetIsFound) {
  expect_bug(test_and_set_counter, weft::BugKind::kAssertion);
}
TEST(Builtins, SplitIncrementWithAtomicBuiltinsIsFound) {
  weft::Result r = expect_bug(builtin_split_increments, weft::BugKind::kAssertion);
  EXPECT_TRUE(trace_has(r, "atomic-store")) << r.report();
}

// =======================================================================================
// std::call_once and pthread_once
// =======================================================================================

std::once_flag g_once;  // weft models a once flag afresh in every execution

void init_value() {
  g_a.fetch_add(1);
  g_value = 42;
}
void* call_once_user(void*) {
  std::call_once(g_once, init_value);
  WEFT_ASSERT(g_value == 42);
  return nullptr;
}
void init_throws_first() {
  if (g_b.fetch_add(1) == 0) throw std::runtime_error("first attempt fails");
}
void* call_once_retrying(void*) {
  for (;;) {
    try {
      std::call_once(g_once, init_throws_first);
      return nullptr;
    } catch (const std::runtime_error&) {
    }
  }
}

auto call_once_twice = [] {
  g_a = 0;
  g_value = 0;
  beside(call_once_user, call_once_user);
  WEFT_ASSERT(g_a.load() == 1);
};
// An exceptional call does not count: the next call runs the callable again.
auto call_once_exception = [] {
  g_b = 0;
  beside(call_once_retrying, call_once_retrying);
  WEFT_ASSERT(g_b.load() == 2);
};
auto call_once_recursive = [] {  // the bug: the callable calls call_once on its own flag
  std::call_once(g_once, [] { std::call_once(g_once, [] {}); });
};

TEST(StdCallOnce, ConcurrentCallsRunTheCallableOnce) { expect_no_bug_sampled(call_once_twice); }
TEST(StdCallOnce, ExceptionalCallIsRetried) { expect_no_bug_sampled(call_once_exception); }
TEST(StdCallOnce, RecursiveCallIsADeadlock) {
  expect_bug(call_once_recursive, weft::BugKind::kDeadlock);
}

pthread_once_t g_ponce = PTHREAD_ONCE_INIT;

void* pthread_once_user(void*) {
  WEFT_ASSERT(pthread_once(&g_ponce, init_value) == 0);
  WEFT_ASSERT(g_value == 42);
  return nullptr;
}
void init_recursive() { pthread_once(&g_ponce, init_value); }

auto pthread_once_twice = [] {
  g_a = 0;
  g_value = 0;
  beside(pthread_once_user, pthread_once_user);
  WEFT_ASSERT(g_a.load() == 1);
};
auto pthread_once_recursive = [] { pthread_once(&g_ponce, init_recursive); };

TEST(PthreadOnce, ConcurrentCallsRunInitOnce) { expect_correct(pthread_once_twice); }
TEST(PthreadOnce, RecursiveCallIsADeadlock) {
  expect_bug(pthread_once_recursive, weft::BugKind::kDeadlock);
}

}  // namespace

// =======================================================================================
// Function-local statics (__cxa_guard_acquire/release: futex system calls)
// =======================================================================================

// Named (not anonymous) so that the guard variables' mangled names are fixed.
namespace weft_prims {
std::atomic<int> constructed;
struct Widget {
  int value;
  Widget() : value(42) { constructed.fetch_add(1); }
};
Widget& instance() {
  static Widget w;
  return w;
}
int recursive_instance();
struct Recursive {
  int value;
  Recursive() : value(recursive_instance() + 1) {}  // its initialisation needs itself
};
int recursive_instance() {
  static Recursive r;
  return r.value;
}
}  // namespace weft_prims

// A function-local static is initialised once per process; these tests rearm it in every
// execution through its guard variable (named by the Itanium C++ ABI), so that each
// execution initialises it under contention.
extern "C++" long long weft_prims_widget_guard asm("_ZGVZN10weft_prims8instanceEvE1w");
extern "C++" long long weft_prims_recursive_guard asm(
    "_ZGVZN10weft_prims18recursive_instanceEvE1r");

namespace {

void* use_static(void*) {
  WEFT_ASSERT(weft_prims::instance().value == 42);
  return nullptr;
}

auto static_init_contended = [] {
  __atomic_store_n(&weft_prims_widget_guard, 0, __ATOMIC_RELEASE);
  weft_prims::constructed = 0;
  beside(use_static, use_static);
  WEFT_ASSERT(weft_prims::constructed.load() == 1);
};
auto static_init_recursive = [] {
  __atomic_store_n(&weft_prims_recursive_guard, 0, __ATOMIC_RELEASE);
  weft_prims::recursive_instance();
};

TEST(FunctionLocalStatic, ContendedInitialisationRunsOnce) {
  expect_no_bug_sampled(static_init_contended);
}
TEST(FunctionLocalStatic, RecursiveInitialisationIsADeadlock) {
  weft::Result r = expect_bug(static_init_recursive, weft::BugKind::kDeadlock);
  EXPECT_TRUE(trace_has(r, "futex-wait")) << r.report();
}

// =======================================================================================
// C++20 latch, barrier, counting_semaphore/binary_semaphore, atomic wait/notify
// (libstdc++ spins a little, then blocks with futex system calls)
// =======================================================================================

std::optional<std::latch> g_latch;

void* latch_worker(void*) {
  g_value = 1;
  g_latch->count_down();
  return nullptr;
}
void* latch_arrive_and_wait(void*) {
  g_latch->arrive_and_wait();
  return nullptr;
}

auto latch_correct = [] {
  g_value = 0;
  g_latch.emplace(1);
  pthread_t t;
  pthread_create(&t, nullptr, latch_worker, nullptr);
  g_latch->wait();
  WEFT_ASSERT(g_value == 1);
  WEFT_ASSERT(g_latch->try_wait());
  pthread_join(t, nullptr);
};
auto latch_arrive = [] {
  g_latch.emplace(2);
  beside(latch_arrive_and_wait, latch_arrive_and_wait);
};
auto latch_miscounted = [] {  // the bug: two expected, one arrives
  g_latch.emplace(2);
  pthread_t t;
  pthread_create(&t, nullptr, latch_worker, nullptr);
  g_latch->wait();
  pthread_join(t, nullptr);
};

TEST(StdLatch, WaitSeesTheCountDown) { expect_no_bug_sampled(latch_correct); }
TEST(StdLatch, ArriveAndWaitIsCorrect) { expect_no_bug_sampled(latch_arrive); }
TEST(StdLatch, MiscountedLatchIsADeadlock) {
  expect_bug(latch_miscounted, weft::BugKind::kDeadlock);
}

struct PhaseDone {
  void operator()() noexcept { g_a.fetch_add(1); }
};
std::optional<std::barrier<PhaseDone>> g_barrier;
int g_slot[2];

void* barrier_phases_0(void*) {
  g_slot[0] = 1;
  g_barrier->arrive_and_wait();
  WEFT_ASSERT(g_slot[1] == 2);  // phase 1 is complete
  g_barrier->arrive_and_wait();
  return nullptr;
}
void* barrier_phases_1(void*) {
  g_slot[1] = 2;
  g_barrier->arrive_and_wait();
  WEFT_ASSERT(g_slot[0] == 1);
  g_barrier->arrive_and_drop();
  return nullptr;
}
void* barrier_skips(void*) {  // the bug: no arrival for the second phase
  g_slot[1] = 2;
  g_barrier->arrive_and_wait();
  return nullptr;
}

auto barrier_correct = [] {
  g_slot[0] = g_slot[1] = 0;
  g_a = 0;
  g_barrier.emplace(2);
  beside(barrier_phases_1, barrier_phases_0);
  WEFT_ASSERT(g_a.load() == 2);  // the completion ran once per phase
};
auto barrier_missing_arrival = [] {
  g_slot[0] = g_slot[1] = 0;
  g_barrier.emplace(2);
  beside(barrier_skips, barrier_phases_0);
};

TEST(StdBarrier, PhasesAndCompletionAreCorrect) { expect_no_bug_sampled(barrier_correct); }
TEST(StdBarrier, MissingArrivalIsADeadlock) {
  expect_bug(barrier_missing_arrival, weft::BugKind::kDeadlock);
}

std::optional<std::counting_semaphore<4>> g_csem;
std::optional<std::binary_semaphore> g_bsem;

void* sem_producer(void*) {
  g_payload = 42;
  g_csem->release();
  return nullptr;
}
void* sem_consumer(void*) {
  g_csem->acquire();
  WEFT_ASSERT(g_payload == 42);
  return nullptr;
}
void* sem_consumer_try_for(void*) {
  WEFT_ASSERT(g_csem->try_acquire_for(1h));  // times out only when nothing else can run
  WEFT_ASSERT(g_payload == 42);
  return nullptr;
}
void* sem_consumer_try(void*) {  // the bug: try_acquire is assumed to succeed
  WEFT_ASSERT(g_csem->try_acquire());
  return nullptr;
}
void* binary_locked_increment(void*) {
  g_bsem->acquire();
  g_counter++;
  g_bsem->release();
  return nullptr;
}

auto semaphore_correct = [] {
  g_payload = 0;
  g_csem.emplace(0);
  beside(sem_producer, sem_consumer);
};
auto semaphore_timed = [] {
  g_payload = 0;
  g_csem.emplace(0);
  beside(sem_producer, sem_consumer_try_for);
};
auto semaphore_nobody_releases = [] {
  g_csem.emplace(0);
  WEFT_ASSERT(!g_csem->try_acquire_for(1h));
  WEFT_ASSERT(!g_csem->try_acquire_until(std::chrono::system_clock::now() + 1h));
};
auto semaphore_try = [] {
  g_payload = 0;
  g_csem.emplace(0);
  beside(sem_producer, sem_consumer_try);
};
auto semaphore_two_consumers = [] {  // the bug: two acquires, one release
  g_payload = 0;
  g_csem.emplace(0);
  beside2(sem_consumer, sem_consumer, sem_producer);
};
auto binary_semaphore_mutex = [] {
  g_counter = 0;
  g_bsem.emplace(1);
  beside(binary_locked_increment, binary_locked_increment);
  WEFT_ASSERT(g_counter == 2);
};

TEST(StdSemaphore, ReleaseThenAcquireIsCorrect) { expect_no_bug_sampled(semaphore_correct); }
TEST(StdSemaphore, TryAcquireForTimesOutOnlyWhenNothingElseCanRun) {
  expect_no_bug_sampled(semaphore_timed);
}
TEST(StdSemaphore, TryAcquireForNobodyReleasesTimesOut) {
  expect_runs_clean(semaphore_nobody_releases);
}
TEST(StdSemaphore, FailingTryAcquireIsFound) {
  expect_bug(semaphore_try, weft::BugKind::kAssertion);
}
TEST(StdSemaphore, MissingReleaseIsADeadlock) {
  expect_bug(semaphore_two_consumers, weft::BugKind::kDeadlock);
}
TEST(StdSemaphore, BinarySemaphoreAsAMutexIsCorrect) {
  expect_no_bug_sampled(binary_semaphore_mutex);
}

void* atomic_waiter(void*) {
  g_flag.wait(0);
  WEFT_ASSERT(g_flag.load() == 1);
  return nullptr;
}
void* atomic_notifier_one(void*) {
  g_flag.store(1);
  g_flag.notify_one();
  return nullptr;
}
void* atomic_notifier_all(void*) {
  g_flag.store(1);
  g_flag.notify_all();
  return nullptr;
}
void* atomic_notifier_forgets(void*) {  // the bug: the store is never notified
  g_flag.store(1);
  return nullptr;
}

auto atomic_wait_one = [] {
  g_flag = 0;
  beside(atomic_waiter, atomic_notifier_one);
};
auto atomic_wait_all = [] {
  g_flag = 0;
  beside2(atomic_waiter, atomic_waiter, atomic_notifier_all);
};
auto atomic_wait_unnotified = [] {
  g_flag = 0;
  beside(atomic_waiter, atomic_notifier_forgets);
};
auto atomic_wait_notify_one_of_two = [] {  // the bug: notify_one for two waiters
  g_flag = 0;
  beside2(atomic_waiter, atomic_waiter, atomic_notifier_one);
};

TEST(StdAtomicWait, NotifyOneWakesTheWaiter) { expect_no_bug_sampled(atomic_wait_one); }
TEST(StdAtomicWait, NotifyAllWakesEveryWaiter) { expect_no_bug_sampled(atomic_wait_all); }
TEST(StdAtomicWait, MissingNotifyIsADeadlock) {
  weft::Result r = expect_bug(atomic_wait_unnotified, weft::BugKind::kDeadlock);
  EXPECT_TRUE(trace_has(r, "futex-wait")) << r.report();
}
TEST(StdAtomicWait, NotifyOneForTwoWaitersIsADeadlock) {
  // Both waiters must get past libstdc++'s spinning into the futex before the store: a
  // random walk rarely runs one thread that long, PCT's priorities often do.
  expect_bug(atomic_wait_notify_one_of_two, weft::BugKind::kDeadlock,
             {.strategy = "pct:2", .executions = 300, .seed = 11});
}

// A one-byte flag: libstdc++ waits on it through its waiter pool's futex word.
std::atomic_flag g_atomic_flag;

void* flag_waiter(void*) {
  g_atomic_flag.wait(false);
  WEFT_ASSERT(g_atomic_flag.test());
  return nullptr;
}
void* flag_setter(void*) {
  g_atomic_flag.test_and_set();
  g_atomic_flag.notify_one();
  return nullptr;
}
auto atomic_flag_wait = [] {
  g_atomic_flag.clear();
  beside(flag_waiter, flag_setter);
};

TEST(StdAtomicWait, AtomicFlagWaitIsCorrect) { expect_no_bug_sampled(atomic_flag_wait); }

// =======================================================================================
// thread_local
// =======================================================================================

thread_local int t_counter = 0;

void* bump_thread_local(void*) {
  WEFT_ASSERT(++t_counter == 1);
  return nullptr;
}
auto thread_locals_fresh = [] { beside(bump_thread_local, bump_thread_local); };

TEST(ThreadLocal, FreshInEveryExecution) {
  expect_correct(thread_locals_fresh);  // thread 0 is a fresh thread in every execution too
}

struct MarksDestroyed {
  int touched = 0;
  ~MarksDestroyed() { g_b.store(1); }
};
thread_local MarksDestroyed t_marker;

void* touch_marker_then_finish(void*) {
  t_marker.touched = 1;
  g_a.store(1);  // "done", but t_marker's destructor has not run yet
  return nullptr;
}

auto thread_local_dtor_joined = [] {
  g_a = 0;
  g_b = 0;
  pthread_t t;
  pthread_create(&t, nullptr, touch_marker_then_finish, nullptr);
  pthread_join(t, nullptr);
  WEFT_ASSERT(g_b.load() == 1);
};
auto thread_local_dtor_raced = [] {  // the bug: the destructor runs after "done"
  g_a = 0;
  g_b = 0;
  pthread_t t;
  pthread_create(&t, nullptr, touch_marker_then_finish, nullptr);
  if (g_a.load() == 1) WEFT_ASSERT(g_b.load() == 1);
  pthread_join(t, nullptr);
};

TEST(ThreadLocal, DestructorRunsBeforeJoinReturns) { expect_correct(thread_local_dtor_joined); }
TEST(ThreadLocal, DestructorRunsUnderControl) {
  expect_bug(thread_local_dtor_raced, weft::BugKind::kAssertion);
}

// =======================================================================================
// Raw pthread mutexes: trylock, timedlock, recursive, errorcheck; spin locks
// =======================================================================================

pthread_mutex_t g_pm = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t g_pm_recursive = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
pthread_mutex_t g_pm_errorcheck;

void* trylock_or_count_busy(void*) {
  const int rc = pthread_mutex_trylock(&g_pm);
  if (rc == 0) {
    g_counter++;
    pthread_mutex_unlock(&g_pm);
  } else {
    WEFT_ASSERT(rc == EBUSY);
    g_b.fetch_add(1);
  }
  return nullptr;
}
void* pm_holder(void*) {
  pthread_mutex_lock(&g_pm);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* pm_holder_forgets(void*) {
  pthread_mutex_lock(&g_pm);
  return nullptr;
}
void* pm_timedlock(void*) {
  WEFT_ASSERT(pthread_mutex_timedlock(&g_pm, &kFarFuture) == 0);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* pm_clocklock(void*) {
  WEFT_ASSERT(pthread_mutex_clocklock(&g_pm, CLOCK_MONOTONIC, &kFarFuture) == 0);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* pm_recursive(void*) {
  WEFT_ASSERT(pthread_mutex_lock(&g_pm_recursive) == 0);
  WEFT_ASSERT(pthread_mutex_trylock(&g_pm_recursive) == 0);
  WEFT_ASSERT(pthread_mutex_unlock(&g_pm_recursive) == 0);
  WEFT_ASSERT(pthread_mutex_unlock(&g_pm_recursive) == 0);
  return nullptr;
}

auto trylock_counts = [] {
  g_counter = 0;
  g_b = 0;
  beside(trylock_or_count_busy, trylock_or_count_busy);
  WEFT_ASSERT(g_counter + g_b.load() == 2);
};
auto timedlock_waits = [] { beside(pm_holder, pm_timedlock); };
auto clocklock_waits = [] { beside(pm_holder, pm_clocklock); };
auto timedlock_times_out = [] { beside(pm_holder_forgets, pm_timedlock); };  // the bug
auto recursive_pthread = [] { beside(pm_recursive, pm_recursive); };
auto timedlock_nobody_unlocks = [] {
  pthread_mutex_lock(&g_pm);
  pthread_t t;
  pthread_create(&t, nullptr,
                 [](void*) -> void* {
                   WEFT_ASSERT(pthread_mutex_timedlock(&g_pm, &kFarFuture) == ETIMEDOUT);
                   return nullptr;
                 },
                 nullptr);
  pthread_join(t, nullptr);
  pthread_mutex_unlock(&g_pm);
};

TEST(PthreadMutex, TrylockIsCorrect) { expect_correct(trylock_counts); }
TEST(PthreadMutex, TimedlockTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(timedlock_waits);
}
TEST(PthreadMutex, ClocklockTimesOutOnlyWhenNothingElseCanRun) {
  expect_correct(clocklock_waits);
}
TEST(PthreadMutex, TimedlockTimesOutWhenNobodyUnlocks) {
  expect_correct(timedlock_nobody_unlocks);
}
TEST(PthreadMutex, TimedlockTimeoutIsFound) {
  weft::Result r = expect_bug(timedlock_times_out, weft::BugKind::kAssertion);
  EXPECT_NE(r.report().find("timed out"), std::string::npos) << r.report();
}
TEST(PthreadMutex, RecursiveIsCorrect) { expect_correct(recursive_pthread); }

void make_errorcheck() {
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
  pthread_mutex_init(&g_pm_errorcheck, &attr);
  pthread_mutexattr_destroy(&attr);
}
void* errorcheck_owner(void*) {
  WEFT_ASSERT(pthread_mutex_lock(&g_pm_errorcheck) == 0);
  WEFT_ASSERT(pthread_mutex_lock(&g_pm_errorcheck) == EDEADLK);
  WEFT_ASSERT(pthread_mutex_trylock(&g_pm_errorcheck) == EBUSY);
  WEFT_ASSERT(pthread_mutex_unlock(&g_pm_errorcheck) == 0);
  return nullptr;
}
void* errorcheck_foreign_unlock(void*) {
  WEFT_ASSERT(pthread_mutex_unlock(&g_pm_errorcheck) == EPERM);  // never its owner
  return nullptr;
}

auto errorcheck = [] {
  make_errorcheck();
  beside(errorcheck_owner, errorcheck_foreign_unlock);
  WEFT_ASSERT(pthread_mutex_unlock(&g_pm_errorcheck) == EPERM);  // not locked at all
  pthread_mutex_destroy(&g_pm_errorcheck);
};
auto errorcheck_relock = [] {  // the bug: the program does not expect EDEADLK
  make_errorcheck();
  pthread_mutex_lock(&g_pm_errorcheck);
  const int rc = pthread_mutex_lock(&g_pm_errorcheck);
  WEFT_ASSERT(rc == 0);
};

TEST(PthreadMutex, ErrorcheckReportsRelockAndForeignUnlock) { expect_correct(errorcheck); }
TEST(PthreadMutex, ErrorcheckRelockFails) {
  expect_bug(errorcheck_relock, weft::BugKind::kAssertion);
}

pthread_spinlock_t g_spin;

void* spin_increment(void*) {
  pthread_spin_lock(&g_spin);
  g_counter++;
  pthread_spin_unlock(&g_spin);
  return nullptr;
}
void* spin_try_increment(void*) {
  if (pthread_spin_trylock(&g_spin) == 0) {
    g_counter++;
    pthread_spin_unlock(&g_spin);
  }
  return nullptr;
}

auto spin_counter = [] {
  pthread_spin_init(&g_spin, PTHREAD_PROCESS_PRIVATE);
  g_counter = 0;
  beside(spin_increment, spin_increment);
  WEFT_ASSERT(g_counter == 2);
  pthread_spin_destroy(&g_spin);
};
auto spin_try_counter = [] {  // the bug: assumes the trylock succeeds
  pthread_spin_init(&g_spin, PTHREAD_PROCESS_PRIVATE);
  g_counter = 0;
  beside(spin_try_increment, spin_try_increment);
  WEFT_ASSERT(g_counter == 2);
};
auto spin_relock = [] {
  pthread_spin_init(&g_spin, PTHREAD_PROCESS_PRIVATE);
  pthread_spin_lock(&g_spin);
  pthread_spin_lock(&g_spin);
};

TEST(PthreadSpin, LockedCounterIsCorrect) { expect_correct(spin_counter); }
TEST(PthreadSpin, FailingTrylockIsFound) {
  expect_bug(spin_try_counter, weft::BugKind::kAssertion);
}
TEST(PthreadSpin, RelockIsADeadlock) { expect_bug(spin_relock, weft::BugKind::kDeadlock); }

// =======================================================================================
// Raw pthread rwlocks
// =======================================================================================

pthread_rwlock_t g_rw = PTHREAD_RWLOCK_INITIALIZER;

void* rw_reader(void*) {
  pthread_rwlock_rdlock(&g_rw);
  WEFT_ASSERT(g_b.load() == 0);
  pthread_rwlock_unlock(&g_rw);
  return nullptr;
}
void* rw_writer(void*) {
  pthread_rwlock_wrlock(&g_rw);
  g_b.store(1);
  WEFT_ASSERT(pthread_rwlock_rdlock(&g_rw) == EDEADLK);  // glibc detects this one
  g_b.store(0);
  pthread_rwlock_unlock(&g_rw);
  return nullptr;
}
void* rw_try(void*) {
  if (pthread_rwlock_tryrdlock(&g_rw) == 0) {
    WEFT_ASSERT(g_b.load() == 0);
    WEFT_ASSERT(pthread_rwlock_trywrlock(&g_rw) == EBUSY);  // a reader keeps writers out
    pthread_rwlock_unlock(&g_rw);
  }
  return nullptr;
}
void* rw_timed(void*) {
  WEFT_ASSERT(pthread_rwlock_timedrdlock(&g_rw, &kFarFuture) == 0);
  pthread_rwlock_unlock(&g_rw);
  WEFT_ASSERT(pthread_rwlock_clockwrlock(&g_rw, CLOCK_MONOTONIC, &kFarFuture) == 0);
  pthread_rwlock_unlock(&g_rw);
  return nullptr;
}
void* rw_upgrade(void*) {  // the bug: a reader asks to write
  pthread_rwlock_rdlock(&g_rw);
  pthread_rwlock_wrlock(&g_rw);
  return nullptr;
}

auto rwlock_read_write = [] {
  g_b = 0;
  beside(rw_writer, rw_reader);
};
auto rwlock_try = [] {
  g_b = 0;
  beside(rw_writer, rw_try);
};
auto rwlock_timed = [] {
  g_b = 0;
  beside(rw_writer, rw_timed);
};
auto rwlock_upgrade = [] { beside(rw_upgrade, rw_reader); };

TEST(PthreadRwlock, ReadAndWriteLocksAreCorrect) { expect_correct(rwlock_read_write); }
TEST(PthreadRwlock, TryLocksAreCorrect) { expect_correct(rwlock_try); }
TEST(PthreadRwlock, TimedLocksTimeOutOnlyWhenNothingElseCanRun) { expect_correct(rwlock_timed); }
TEST(PthreadRwlock, UpgradeIsADeadlock) { expect_bug(rwlock_upgrade, weft::BugKind::kDeadlock); }

// =======================================================================================
// Raw pthread condition variables, including timed waits
// =======================================================================================

pthread_cond_t g_pcv = PTHREAD_COND_INITIALIZER;

// Without a predicate: a timeout can only mean the signaller has finished.
void* p_timedwait_once(void*) {
  pthread_mutex_lock(&g_pm);
  const int rc = pthread_cond_timedwait(&g_pcv, &g_pm, &kFarFuture);
  WEFT_ASSERT(rc == 0 || rc == ETIMEDOUT);
  if (rc == ETIMEDOUT) WEFT_ASSERT(g_ready);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* p_timedwait_expecting_signal(void*) {  // the bug: a timeout is not expected
  pthread_mutex_lock(&g_pm);
  WEFT_ASSERT(pthread_cond_timedwait(&g_pcv, &g_pm, &kFarFuture) == 0);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* p_wait_loop(void*) {
  pthread_mutex_lock(&g_pm);
  while (!g_ready) pthread_cond_wait(&g_pcv, &g_pm);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* p_broadcast(void*) {
  pthread_mutex_lock(&g_pm);
  g_ready = true;
  pthread_cond_broadcast(&g_pcv);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}
void* p_signal(void*) {
  pthread_mutex_lock(&g_pm);
  g_ready = true;
  pthread_cond_signal(&g_pcv);
  pthread_mutex_unlock(&g_pm);
  return nullptr;
}

auto p_timed_cond = [] {
  g_ready = false;
  beside(p_signal, p_timedwait_once);
};
auto p_timed_cond_bug = [] {
  g_ready = false;
  beside(p_signal, p_timedwait_expecting_signal);
};
auto p_broadcast_two = [] {
  g_ready = false;
  beside2(p_wait_loop, p_wait_loop, p_broadcast);
};
auto p_signal_one_of_two = [] {  // the bug: signal where broadcast was needed
  g_ready = false;
  beside2(p_wait_loop, p_wait_loop, p_signal);
};
// A monotonic-clock condition variable, and clockwait: both time out; the program's clock
// shows the time passed.
auto p_clock_cond = [] {
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_t cv;
  pthread_cond_init(&cv, &attr);
  pthread_condattr_destroy(&attr);
  pthread_mutex_lock(&g_pm);
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  const timespec deadline{now.tv_sec + 3600, now.tv_nsec};
  WEFT_ASSERT(pthread_cond_timedwait(&cv, &g_pm, &deadline) == ETIMEDOUT);
  timespec after;
  clock_gettime(CLOCK_MONOTONIC, &after);
  WEFT_ASSERT(after.tv_sec >= deadline.tv_sec);
  WEFT_ASSERT(pthread_cond_clockwait(&cv, &g_pm, CLOCK_REALTIME, &kFarFuture) == ETIMEDOUT);
  WEFT_ASSERT(time(nullptr) >= kFarFuture.tv_sec);
  timeval tv;
  gettimeofday(&tv, nullptr);
  WEFT_ASSERT(tv.tv_sec >= kFarFuture.tv_sec);
  pthread_mutex_unlock(&g_pm);
  pthread_cond_destroy(&cv);
};

TEST(PthreadCond, TimedwaitTimesOutOnlyWhenNothingElseCanRun) { expect_correct(p_timed_cond); }
TEST(PthreadCond, UnexpectedTimeoutIsFound) {
  weft::Result r = expect_bug(p_timed_cond_bug, weft::BugKind::kAssertion);
  EXPECT_NE(r.report().find("timed out"), std::string::npos) << r.report();
}
TEST(PthreadCond, BroadcastWakesEveryWaiter) { expect_no_bug_sampled(p_broadcast_two); }
TEST(PthreadCond, SignalForTwoWaitersIsADeadlock) {
  expect_bug(p_signal_one_of_two, weft::BugKind::kDeadlock);
}
TEST(PthreadCond, MonotonicTimedwaitAndClockwaitTimeOut) { expect_runs_clean(p_clock_cond); }

// =======================================================================================
// POSIX semaphores
// =======================================================================================

sem_t g_psem;

void* psem_post(void*) {
  g_payload = 42;
  WEFT_ASSERT(sem_post(&g_psem) == 0);
  return nullptr;
}
void* psem_wait(void*) {
  WEFT_ASSERT(sem_wait(&g_psem) == 0);
  WEFT_ASSERT(g_payload == 42);
  return nullptr;
}
void* psem_timedwait(void*) {
  WEFT_ASSERT(sem_timedwait(&g_psem, &kFarFuture) == 0);
  WEFT_ASSERT(g_payload == 42);
  return nullptr;
}
void* psem_trywait(void*) {
  if (sem_trywait(&g_psem) == 0) {
    WEFT_ASSERT(g_payload == 42);
    g_b.store(1);
  } else {
    WEFT_ASSERT(errno == EAGAIN);
  }
  return nullptr;
}
void* psem_trywait_assumed(void*) {  // the bug
  WEFT_ASSERT(sem_trywait(&g_psem) == 0);
  return nullptr;
}

auto psem_wait_post = [] {
  g_payload = 0;
  sem_init(&g_psem, 0, 0);
  beside(psem_post, psem_wait);
  int v = -1;
  WEFT_ASSERT(sem_getvalue(&g_psem, &v) == 0 && v == 0);
  sem_post(&g_psem);
  sem_post(&g_psem);
  WEFT_ASSERT(sem_getvalue(&g_psem, &v) == 0 && v == 2);
  sem_destroy(&g_psem);
};
auto psem_trywait_post = [] {
  g_payload = 0;
  g_b = 0;
  sem_init(&g_psem, 0, 0);
  beside(psem_post, psem_trywait);
  int v = -1;
  sem_getvalue(&g_psem, &v);
  WEFT_ASSERT(v == 1 - g_b.load());  // taken by the trywait, or still there
};
auto psem_timed = [] {
  g_payload = 0;
  sem_init(&g_psem, 0, 0);
  beside(psem_post, psem_timedwait);
};
auto psem_nobody_posts = [] {  // a timeout, not a deadlock
  sem_init(&g_psem, 0, 0);
  WEFT_ASSERT(sem_timedwait(&g_psem, &kFarFuture) == -1 && errno == ETIMEDOUT);
  WEFT_ASSERT(sem_clockwait(&g_psem, CLOCK_MONOTONIC, &kFarFuture) == -1 && errno == ETIMEDOUT);
};
auto psem_trywait_bug = [] {
  sem_init(&g_psem, 0, 0);
  beside(psem_post, psem_trywait_assumed);
};
auto psem_missing_post = [] {
  g_payload = 0;
  sem_init(&g_psem, 0, 0);
  beside2(psem_wait, psem_wait, psem_post);
};

TEST(PosixSemaphore, WaitPostGetvalueAreCorrect) { expect_correct(psem_wait_post); }
TEST(PosixSemaphore, TrywaitIsCorrect) { expect_correct(psem_trywait_post); }
TEST(PosixSemaphore, TimedwaitTimesOutOnlyWhenNothingElseCanRun) { expect_correct(psem_timed); }
TEST(PosixSemaphore, TimedwaitNobodyPostsTimesOut) { expect_runs_clean(psem_nobody_posts); }
TEST(PosixSemaphore, FailingTrywaitIsFound) {
  expect_bug(psem_trywait_bug, weft::BugKind::kAssertion);
}
TEST(PosixSemaphore, MissingPostIsADeadlock) {
  expect_bug(psem_missing_post, weft::BugKind::kDeadlock);
}

// =======================================================================================
// Raw pthread barriers
// =======================================================================================

pthread_barrier_t g_pbarrier;

void* pbarrier_twice(void*) {
  g_a.fetch_add(1);
  if (pthread_barrier_wait(&g_pbarrier) == PTHREAD_BARRIER_SERIAL_THREAD) g_b.fetch_add(1);
  WEFT_ASSERT(g_a.load() == 2);  // everybody arrived
  if (pthread_barrier_wait(&g_pbarrier) == PTHREAD_BARRIER_SERIAL_THREAD) g_b.fetch_add(1);
  return nullptr;
}

auto pbarrier_correct = [] {
  g_a = 0;
  g_b = 0;
  pthread_barrier_init(&g_pbarrier, nullptr, 2);
  beside(pbarrier_twice, pbarrier_twice);
  WEFT_ASSERT(g_b.load() == 2);  // one serial thread per round
  pthread_barrier_destroy(&g_pbarrier);
};
auto pbarrier_short = [] {  // the bug: three expected, two arrive
  g_a = 0;
  g_b = 0;
  pthread_barrier_init(&g_pbarrier, nullptr, 3);
  beside(pbarrier_twice, pbarrier_twice);
};

TEST(PthreadBarrier, SerialThreadExactlyOncePerRound) { expect_correct(pbarrier_correct); }
TEST(PthreadBarrier, MissingArrivalIsADeadlock) {
  expect_bug(pbarrier_short, weft::BugKind::kDeadlock);
}

// =======================================================================================
// sched_yield and sleeps: scheduling points that never wait for real time
// =======================================================================================

void* sets_a(void*) {
  g_a.store(1);
  return nullptr;
}
auto yield_bug = [] {  // the bug: a yield taken for synchronisation
  g_a = 0;
  pthread_t t;
  pthread_create(&t, nullptr, sets_a, nullptr);
  sched_yield();
  std::this_thread::yield();
  WEFT_ASSERT(g_a.load() == 1);
  pthread_join(t, nullptr);
};

TEST(Yield, YieldIsASchedulingPoint) {
  weft::Result r = expect_bug(yield_bug, weft::BugKind::kAssertion);
  EXPECT_TRUE(trace_has(r, "yield")) << r.report();
}

void* spin_until_set(void*) {
  while (g_a.load() == 0) sched_yield();
  return nullptr;
}
auto yield_spin = [] {  // a spin-wait with yields: the setter gets to run
  g_a = 0;
  beside(spin_until_set, sets_a);
};

TEST(Yield, SpinWaitWithYieldIsCorrect) { expect_no_bug_sampled(yield_spin); }

void* sleeps_ten_seconds_each_way(void*) {
  const auto start = std::chrono::steady_clock::now();
  sleep(10);
  usleep(10'000'000);
  const timespec ten{10, 0};
  nanosleep(&ten, nullptr);
  clock_nanosleep(CLOCK_MONOTONIC, 0, &ten, nullptr);
  std::this_thread::sleep_for(10s);
  std::this_thread::sleep_until(std::chrono::steady_clock::now() + 10s);
  std::this_thread::sleep_until(std::chrono::system_clock::now() + 10s);
  WEFT_ASSERT(std::chrono::steady_clock::now() - start >= 70s);  // as the program sees it
  g_a.fetch_add(1);
  return nullptr;
}
auto sleepers = [] {
  g_a = 0;
  beside(sleeps_ten_seconds_each_way, sleeps_ten_seconds_each_way);
  WEFT_ASSERT(g_a.load() == 2);
};
void* sleeps_then_sets(void*) {
  usleep(1000);
  g_a.store(1);
  return nullptr;
}
auto sleep_bug = [] {  // the bug: a longer sleep taken for synchronisation
  g_a = 0;
  pthread_t t;
  pthread_create(&t, nullptr, sleeps_then_sets, nullptr);
  sleep(1);
  WEFT_ASSERT(g_a.load() == 1);
  pthread_join(t, nullptr);
};

TEST(Sleep, SleepsYieldInsteadOfSleeping) {
  weft::Result r = weft::explore(sleepers, sampled(20));
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), 20u);
  EXPECT_LT(r.elapsed_s(), 1.0);  // 20 executions x 2 threads x 70 s of sleep
}
TEST(Sleep, SleepingForSynchronisationIsFound) {
  weft::Result r = expect_bug(sleep_bug, weft::BugKind::kAssertion);
  EXPECT_TRUE(trace_has(r, "sleep")) << r.report();
}

// =======================================================================================
// Hangs, livelocks, and bad input
// =======================================================================================

TEST(Detect, BlockingSystemCallIsAHang) {
  auto body = [] {
    int fds[2];
    if (pipe(fds) != 0) return;
    char c;
    (void)!read(fds[0], &c, 1);  // nobody ever writes
  };
  weft::Options o = sampled(10);
  o.hang_timeout_s = 0.5;
  weft::Result r = weft::explore(body, o);
  expect_found(r, weft::BugKind::kHang);
  EXPECT_LT(r.elapsed_s(), 5.0);
  EXPECT_NE(first_message(r).find("outside weft's control (no scheduling point for 0.5 s)"),
            std::string::npos)
      << first_message(r);
}

void* spins_forever(void*) {
  while (g_a.load() == 0) {
  }
  return nullptr;
}
auto livelock = [] {
  g_a = 0;
  pthread_t t;
  pthread_create(&t, nullptr, spins_forever, nullptr);
  pthread_join(t, nullptr);
};

TEST(Detect, SpinLoopBeyondMaxStepsIsALivelock) {
  weft::Options o = sampled(10);
  o.max_steps = 2000;
  weft::Result r = weft::explore(livelock, o);
  expect_found(r, weft::BugKind::kLivelock);
  EXPECT_NE(first_message(r).find("2000"), std::string::npos) << first_message(r);
  if (r.failed()) expect_replays(livelock, r, o);
}

void expect_tool_error(const weft::Result& r, const std::string& words) {
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.failed());
  EXPECT_NE(r.error().find(words), std::string::npos) << r.error();
  EXPECT_EQ(r.error().find('\n'), std::string::npos) << r.error();
}

TEST(BadInput, UnknownStrategy) {
  expect_tool_error(weft::explore(std_mutex_counter, {.strategy = "bogus"}), "unknown strategy");
}
TEST(BadInput, ZeroMaxSteps) {
  expect_tool_error(weft::explore(std_mutex_counter, {.strategy = "dfs", .max_steps = 0}),
                    "max_steps");
}
TEST(BadInput, MalformedAndTruncatedSchedules) {
  expect_tool_error(weft::replay(std_mutex_counter, "not a schedule"), "invalid schedule");
  expect_tool_error(weft::replay(std_mutex_counter, ""), "invalid schedule");
  expect_tool_error(weft::replay(std_mutex_counter, "weft1.zz.dfs.0.1.00000000"),
                    "invalid schedule");
  weft::Result found = weft::explore(std_try_lock_counter, dfs());
  ASSERT_TRUE(found.failed());
  const std::string s = found.bugs()[0].schedule();
  for (std::size_t cut : {s.size() - 1, s.size() - 9, s.size() / 2, std::size_t{6}})
    expect_tool_error(weft::replay(std_try_lock_counter, s.substr(0, cut)), "invalid schedule");
  std::string edited = s;  // one decision changed: the check no longer matches
  const std::size_t last_decision = s.rfind('.') - 1;
  edited[last_decision] = s[last_decision] == '0' ? '1' : '0';
  expect_tool_error(weft::replay(std_try_lock_counter, edited), "invalid schedule");
}
TEST(BadInput, ScheduleFromAnotherTest) {
  weft::Result found = weft::explore(std_try_lock_counter, dfs());
  ASSERT_TRUE(found.failed());
  expect_tool_error(weft::replay(std_mutex_counter, found.bugs()[0].schedule()), "another test");
}

}  // namespace
