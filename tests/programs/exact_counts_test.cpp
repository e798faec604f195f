// dfs on real threads runs exactly as many executions as the program has interleavings.
//
// The scheduling points of each program are written out below. Every thread starts with
// thread-start (S) and ends with thread-exit (E); pthread_create (c), pthread_join (j),
// mutex lock/unlock (L, U) and atomic operations (st) are one step each; so is every
// instrumented plain access (R, W) while more than one thread is alive, which includes the
// main thread's read of a pthread_t before joining it (Rt). Accesses while only one thread
// is alive, and every other one joined, are not scheduling points (nothing can interleave
// with them, nor race with them); a thread that ended and was not joined yet keeps them.
//
// The counts are small enough to check by hand for the first program; for the others the
// test also recounts them with an independent brute-force enumeration of the same op lists.
#include <gtest/gtest.h>
#include <pthread.h>
#include <weft/weft.hpp>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

// External linkage: an atomic that nothing reads may otherwise be optimised away.
std::atomic<int> g_exact_x;

namespace {

int g_counter;
pthread_mutex_t g_m = PTHREAD_MUTEX_INITIALIZER;

void* store_one(void*) {
  g_exact_x.store(1);
  return nullptr;
}
void* locked_increment(void*) {
  pthread_mutex_lock(&g_m);
  g_counter++;
  pthread_mutex_unlock(&g_m);
  return nullptr;
}

// Counts interleavings of per-thread op lists: thread i > 0 may start once thread 0 has
// executed its create_at[i]-th op; thread 0's op "j<i>" waits for thread i to finish; "L"
// waits until no other thread holds the (single) lock, which it holds until its "U".
std::uint64_t brute_force(const std::vector<std::vector<std::string>>& threads,
                          const std::vector<std::size_t>& create_at) {
  std::vector<std::size_t> pos(threads.size(), 0);
  std::function<std::uint64_t()> rec = [&]() -> std::uint64_t {
    bool all_done = true;
    std::uint64_t total = 0;
    for (std::size_t t = 0; t < threads.size(); ++t) {
      if (pos[t] == threads[t].size()) continue;
      all_done = false;
      if (t > 0 && pos[0] <= create_at[t]) continue;
      const std::string& op = threads[t][pos[t]];
      if (op[0] == 'j') {
        std::size_t target = std::stoul(op.substr(1));
        if (pos[target] != threads[target].size()) continue;
      }
      if (op == "L") {
        bool held = false;
        for (std::size_t u = 0; u < threads.size(); ++u) {
          if (u == t) continue;
          for (std::size_t k = 0; k < pos[u]; ++k)
            if (threads[u][k] == "L") held = true;
            else if (threads[u][k] == "U") held = false;
          if (held) break;
        }
        if (held) continue;
      }
      ++pos[t];
      total += rec();
      --pos[t];
    }
    return all_done ? 1 : total;
  };
  return rec();
}

// Every schedule, counted: state caching off (it would skip schedules that reach a state
// already explored). With it on, the search still completes without a bug, in no more
// executions.
std::uint64_t dfs_executions(const std::function<void()>& body, const std::string& name) {
  weft::Options o;
  o.strategy = "dfs";
  o.executions = 0;
  o.name = name;
  o.state_cache = false;
  weft::Result r = weft::explore(body, o);
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete());
  o.state_cache = true;
  weft::Result cached = weft::explore(body, o);
  EXPECT_TRUE(cached.ok()) << cached.report();
  EXPECT_TRUE(cached.complete());
  EXPECT_LE(cached.executions(), r.executions());
  return r.executions();
}

TEST(ExactCounts, OneThreadJoinedByMain) {
  // T0: S c Rt j1 E      T1: S st E
  // T1 becomes enabled at c; T0's Rt can go before T1's S, after S, after st or after E,
  // and everything else is forced: 4 executions.
  auto body = [] {
    pthread_t t;
    pthread_create(&t, nullptr, store_one, nullptr);
    pthread_join(t, nullptr);
  };
  EXPECT_EQ(brute_force({{"S", "c", "Rt", "j1", "E"}, {"S", "st", "E"}}, {0, 1}), 4u);
  EXPECT_EQ(dfs_executions(body, "one-thread"), 4u);
}

TEST(ExactCounts, TwoThreadsWithOneAtomicStoreEach) {
  // T0: S c1 c2 Ra j1 Rb j2 E      T1, T2: S st E
  auto body = [] {
    pthread_t a, b;
    pthread_create(&a, nullptr, store_one, nullptr);
    pthread_create(&b, nullptr, store_one, nullptr);
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
  };
  EXPECT_EQ(brute_force({{"S", "c1", "c2", "Ra", "j1", "Rb", "j2", "E"},
                         {"S", "st", "E"},
                         {"S", "st", "E"}},
                        {0, 1, 2}),
            594u);
  EXPECT_EQ(dfs_executions(body, "two-stores"), 594u);
}

TEST(ExactCounts, TwoThreadsIncrementingUnderAMutex) {
  // T0: S c1 c2 Ra j1 Rb j2 E      T1, T2: S L R W U E  (g_counter++ is a read and a write)
  auto body = [] {
    g_counter = 0;
    pthread_t a, b;
    pthread_create(&a, nullptr, locked_increment, nullptr);
    pthread_create(&b, nullptr, locked_increment, nullptr);
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    WEFT_ASSERT(g_counter == 2);
  };
  EXPECT_EQ(brute_force({{"S", "c1", "c2", "Ra", "j1", "Rb", "j2", "E"},
                         {"S", "L", "R", "W", "U", "E"},
                         {"S", "L", "R", "W", "U", "E"}},
                        {0, 1, 2}),
            12283u);
  EXPECT_EQ(dfs_executions(body, "locked-increments"), 12283u);
}

// n threads each doing k increments of a counter under one mutex have (n*k)!/(k!)^n
// lock-acquisition orders, and that is the number of happens-before classes: the plain
// accesses inside the lock, the thread starts, exits and joins add none. dpor explores
// each exactly once (issue #6): 90 for 3x2, 1,680 for 3x3.
int g_rounds = 1;
void* locked_increments(void*) {
  for (int i = 0; i < g_rounds; ++i) {
    pthread_mutex_lock(&g_m);
    g_counter++;
    pthread_mutex_unlock(&g_m);
  }
  return nullptr;
}

weft::Result dpor_counter(int threads, int rounds) {
  g_rounds = rounds;
  auto body = [threads, rounds] {
    g_counter = 0;
    pthread_t t[4];
    for (int i = 0; i < threads; ++i) pthread_create(&t[i], nullptr, locked_increments, nullptr);
    for (int i = 0; i < threads; ++i) pthread_join(t[i], nullptr);
    WEFT_ASSERT(g_counter == threads * rounds);
  };
  return weft::explore(body, {.strategy = "dpor",
                              .executions = 0,
                              .name = "dpor-counter-" + std::to_string(threads) + "x" +
                                      std::to_string(rounds)});
}

TEST(ExactCounts, DporExploresEachLockOrderOnce) {
  const weft::Result a = dpor_counter(3, 2);
  EXPECT_TRUE(a.ok()) << a.report();
  EXPECT_TRUE(a.complete()) << a.coverage();
  EXPECT_EQ(a.executions(), 90u) << a.coverage();
  const weft::Result b = dpor_counter(3, 3);
  EXPECT_TRUE(b.ok()) << b.report();
  EXPECT_TRUE(b.complete()) << b.coverage();
  EXPECT_EQ(b.executions(), 1680u) << b.coverage();
  EXPECT_NE(b.coverage().find("1680 happens-before classes, 0 redundant"), std::string::npos)
      << b.coverage();
}

TEST(ExactCounts, ABudgetStopsDfsBeforeItCompletes) {
  auto body = [] {
    pthread_t t;
    pthread_create(&t, nullptr, store_one, nullptr);
    pthread_join(t, nullptr);
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 3, .name = "budget"});
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(r.complete()) << "3 of 4 executions is not the whole space";
  EXPECT_EQ(r.executions(), 3u);
}

}  // namespace

// The test body reads what a thread it has not joined wrote, after joining another one:
// it may be the only thread left then, yet the read races with the write. dpor, under
// the API's defaults (races off, every access a point), finds the order where the read
// comes first, as dfs does; it once saw no step there and claimed one class complete.
TEST(ExactCounts, DporSeesTheLastThreadsReadOfAnUnjoinedThreadsWrite) {
  for (const std::string strategy : {"dpor", "dfs"}) {
    const weft::Result r = weft::explore(
        [] {
          g_counter = 0;
          pthread_t a, b;
          pthread_create(&a, nullptr, [](void*) -> void* { g_counter = 1; return nullptr; }, nullptr);
          pthread_create(&b, nullptr, [](void*) -> void* { return nullptr; }, nullptr);
          pthread_join(b, nullptr);
          WEFT_ASSERT(g_counter == 1);
          pthread_join(a, nullptr);
        },
        {.strategy = strategy, .executions = 0, .name = "last-thread-left"});
    EXPECT_FALSE(r.ok()) << strategy << ": " << r.coverage();
  }
}
