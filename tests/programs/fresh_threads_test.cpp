// Every controlled thread behaves like a new thread in every execution, although weft
// reuses OS threads across executions (runtime/carrier.hpp): fresh thread_local values,
// thread_local and pthread key destructors run (under control, before the thread ends),
// empty pthread keys, its own pthread_self, the default name, the default signal mask,
// errno 0.
#include <errno.h>
#include <signal.h>
#include <sys/prctl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

// External linkage, so that nothing here is optimised away.
thread_local int t_counter = 0;
std::atomic<int> g_constructed, g_destroyed, g_key_destroyed;
pthread_t g_selves[2];
pthread_key_t g_key;
std::atomic<bool> g_bad_start;

struct Tracked {
  Tracked() { g_constructed.fetch_add(1); }
  ~Tracked() { g_destroyed.fetch_add(1); }
  int value = 7;
};
thread_local Tracked t_tracked;

namespace {

weft::Options many(const char* name) {
  return {.strategy = "random", .executions = 300, .seed = 11, .name = name};
}

void* fresh_worker(void* arg) {
  const long index = reinterpret_cast<long>(arg);
  // What a brand-new thread sees.
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof name);
  sigset_t mask;
  pthread_sigmask(SIG_SETMASK, nullptr, &mask);
  if (t_counter != 0 || pthread_getspecific(g_key) != nullptr || errno != 0 ||
      std::strcmp(name, "worker") == 0 || std::strcmp(name, "direct") == 0 ||
      sigismember(&mask, SIGUSR1))
    g_bad_start.store(true);
  // Leave traces a reused thread would carry into the next execution.
  ++t_counter;
  errno = EINVAL;
  if (index == 0)
    pthread_setname_np(pthread_self(), "worker");
  else
    prctl(PR_SET_NAME, "direct", 0, 0, 0);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, nullptr);
  pthread_setspecific(g_key, std::malloc(16));
  (void)t_tracked.value;  // constructs it
  g_selves[index] = pthread_self();
  return nullptr;
}

TEST(FreshThreads, EveryThreadStartsNewInEveryExecution) {
  ASSERT_EQ(pthread_key_create(&g_key,
                               [](void* p) {
                                 std::free(p);
                                 g_key_destroyed.fetch_add(1);
                               }),
            0);
  auto body = [] {
    g_constructed = 0;
    g_destroyed = 0;
    g_key_destroyed = 0;
    g_bad_start = false;
    pthread_t a, b;
    pthread_create(&a, nullptr, fresh_worker, reinterpret_cast<void*>(0));
    pthread_create(&b, nullptr, fresh_worker, reinterpret_cast<void*>(1));
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    WEFT_ASSERT(!g_bad_start.load());
    WEFT_ASSERT(!pthread_equal(g_selves[0], g_selves[1]));
    // Destructors ran before each thread ended, hence before its join returned.
    WEFT_ASSERT(g_constructed.load() == 2);
    WEFT_ASSERT(g_destroyed.load() == 2);
    WEFT_ASSERT(g_key_destroyed.load() == 2);
  };
  weft::Result r = weft::explore(body, many("fresh"));
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), 300u);
}

TEST(FreshThreads, StdThreadThreadLocalsAreFresh) {
  auto body = [] {
    std::thread a([] { WEFT_ASSERT(++t_counter == 1); });
    std::thread b([] { WEFT_ASSERT(++t_counter == 1); });
    a.join();
    b.join();
  };
  weft::Result r = weft::explore(body, many("std-fresh"));
  EXPECT_TRUE(r.ok()) << r.report();
}

void* exit_early(void*) {
  pthread_exit(reinterpret_cast<void*>(42));
}

TEST(FreshThreads, PthreadExitAndCustomStacksWorkAcrossExecutions) {
  // A thread that ends with pthread_exit takes its OS thread with it; one with a custom
  // stack size gets an OS thread of its own. Both, many times over.
  auto body = [] {
    pthread_t a, b;
    pthread_attr_t big;
    pthread_attr_init(&big);
    pthread_attr_setstacksize(&big, 4 << 20);
    pthread_create(&a, nullptr, exit_early, nullptr);
    pthread_create(&b, &big, exit_early, nullptr);
    pthread_attr_destroy(&big);
    void* ra = nullptr;
    void* rb = nullptr;
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    WEFT_ASSERT(ra == reinterpret_cast<void*>(42) && rb == reinterpret_cast<void*>(42));
  };
  weft::Result r = weft::explore(body, many("exit"));
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), 300u);
}

}  // namespace
