// User-level switching (runtime/fiber.hpp): a controlled thread may resume on another
// kernel thread than its own, and must not notice: its thread_local values, errno,
// pthread_self, floating-point rounding mode and signal mask are its own after every
// switch. Threads pinned to their kernel thread (a mask of their own, a custom stack,
// pthread_exit) interleave with the ones that move. A replay keeps every thread on its own
// kernel thread, for a debugger.
#include <errno.h>
#include <fenv.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <weft/weft.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

thread_local int t_value = 0;  // external linkage: nothing here is optimised away
pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;
int g_shared;

namespace {

bool fibers_off() {
  const char* env = std::getenv("WEFT_FIBERS");
  return env != nullptr && std::strcmp(env, "0") == 0;
}

// The kernel's id of the calling kernel thread, past weft's interposed gettid (which
// gives a thread's stable virtual id wherever it runs).
long kernel_tid() {
  long r;
  asm volatile("syscall" : "=a"(r) : "a"(SYS_gettid) : "rcx", "r11", "memory");
  return r;
}

void locked_rounds(int n) {
  for (int i = 0; i < n; ++i) {
    pthread_mutex_lock(&g_m);
    ++g_shared;
    pthread_mutex_unlock(&g_m);
  }
}

long g_ran_on[2];

void* records_kernel_thread(void* arg) {
  locked_rounds(2);
  g_ran_on[reinterpret_cast<long>(arg)] = kernel_tid();
  return nullptr;
}

TEST(Fibers, ThreadsShareAKernelThreadAndAReplayKeepsThemApart) {
  if (fibers_off()) GTEST_SKIP() << "WEFT_FIBERS=0";
  auto body = [] {
    pthread_t a, b;
    pthread_create(&a, nullptr, records_kernel_thread, reinterpret_cast<void*>(0));
    pthread_create(&b, nullptr, records_kernel_thread, reinterpret_cast<void*>(1));
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    WEFT_ASSERT(g_ran_on[0] != g_ran_on[1]);
  };
  const weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 50, .name = "moves"});
  ASSERT_TRUE(r.error().empty()) << r.error();
  // Two threads ending on one kernel thread: only user-level switching does that.
  ASSERT_TRUE(r.failed()) << "every thread ran on its own kernel thread";
  // In the replay the assertion holds, so the execution outlives the schedule: weft says
  // the program did not follow it.
  const weft::Result again = weft::replay(body, r.bugs()[0].schedule(), {.name = "moves"});
  EXPECT_FALSE(again.failed()) << "a replay ran two threads on one kernel thread";
  EXPECT_NE(again.error().find("the schedule has ended but the execution goes on"), std::string::npos)
      << again.error();
}

// Everything a thread keeps in its registers or its TLS, checked after every switch.
void* keeps_its_state(void* arg) {
  const int me = static_cast<int>(reinterpret_cast<long>(arg));
  const int mode = me % 2 == 0 ? FE_DOWNWARD : FE_UPWARD;
  t_value = me;
  fesetround(mode);
  const pthread_t self = pthread_self();
  for (int i = 0; i < 3; ++i) {
    errno = 100 + me;
    pthread_mutex_lock(&g_m);
    ++g_shared;
    pthread_mutex_unlock(&g_m);
    WEFT_ASSERT(errno == 100 + me);
    WEFT_ASSERT(t_value == me);
    WEFT_ASSERT(fegetround() == mode);
    WEFT_ASSERT(pthread_equal(pthread_self(), self));
    // 1/3 rounds down or up as the thread asked: SSE arithmetic under its own MXCSR
    // (fegetround reads the x87 control word).
    volatile double one = 1.0, three = 3.0;
    const double third = one / three;
    std::uint64_t bits;
    std::memcpy(&bits, &third, sizeof bits);
    WEFT_ASSERT(bits == (mode == FE_DOWNWARD ? 0x3fd5555555555555u : 0x3fd5555555555556u));
  }
  return nullptr;
}

TEST(Fibers, EachThreadKeepsItsRegistersTlsAndErrnoAcrossSwitches) {
  auto body = [] {
    g_shared = 0;
    pthread_t t[3];
    for (long i = 0; i < 3; ++i) pthread_create(&t[i], nullptr, keeps_its_state, reinterpret_cast<void*>(i + 1));
    keeps_its_state(nullptr);
    for (pthread_t x : t) pthread_join(x, nullptr);
    fesetround(FE_TONEAREST);
    WEFT_ASSERT(g_shared == 12);
  };
  const weft::Result r = weft::explore(body, {.strategy = "random", .executions = 400, .seed = 3, .name = "state"});
  EXPECT_TRUE(r.error().empty()) << r.error();
  EXPECT_FALSE(r.failed()) << r.bugs()[0].message();
  EXPECT_EQ(r.executions(), 400u);
}

// A thread with a mask of its own (pinned from then on), one with a custom stack (pinned
// from its start), one that leaves with pthread_exit (pinned for its end), and two that
// move: every order of their locks, many times.
void* masked(void*) {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &usr1, nullptr);
  locked_rounds(2);
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  WEFT_ASSERT(sigismember(&now, SIGUSR1));
  return nullptr;
}

void* plain(void*) {
  locked_rounds(2);
  sigset_t now;
  pthread_sigmask(SIG_SETMASK, nullptr, &now);
  WEFT_ASSERT(!sigismember(&now, SIGUSR1));
  return nullptr;
}

void* exits_early(void*) {
  locked_rounds(1);
  pthread_exit(reinterpret_cast<void*>(7));
}

TEST(Fibers, PinnedThreadsInterleaveWithMovingOnes) {
  auto body = [] {
    g_shared = 0;
    pthread_attr_t big;
    pthread_attr_init(&big);
    pthread_attr_setstacksize(&big, 1 << 20);
    pthread_t t[5];
    pthread_create(&t[0], nullptr, masked, nullptr);
    pthread_create(&t[1], &big, plain, nullptr);
    pthread_create(&t[2], nullptr, exits_early, nullptr);
    pthread_create(&t[3], nullptr, plain, nullptr);
    pthread_create(&t[4], nullptr, plain, nullptr);
    pthread_attr_destroy(&big);
    void* ret[5];
    for (int i = 0; i < 5; ++i) pthread_join(t[i], &ret[i]);
    WEFT_ASSERT(ret[2] == reinterpret_cast<void*>(7));
    WEFT_ASSERT(g_shared == 9);
  };
  const weft::Result r = weft::explore(body, {.strategy = "random", .executions = 500, .seed = 5, .name = "pinned"});
  EXPECT_TRUE(r.error().empty()) << r.error();
  EXPECT_FALSE(r.failed()) << r.bugs()[0].message();
  EXPECT_EQ(r.executions(), 500u);
}

}  // namespace
