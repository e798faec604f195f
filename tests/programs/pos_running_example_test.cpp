// The POS paper's running example (Figure 2) as a real C++ program: two threads of
// std::atomic operations and a semaphore, created and joined by the test body. The assertion
// fails only for the order B1 A1 B2 B3 A2 A3 B4 B5 B6 A4.
//
// The paper's probabilities (POS 1/48, random walk 1/128, PCT 1/200) are for the two
// threads alone; a real program also takes the steps of thread start, create, exit and
// join, which every strategy sees too. The theory for this program is therefore its model
// with those steps (a model program, tests/support, with a yield for each start and exit):
// run on the same strategy and seed, the real program must be scheduled exactly like its
// model, execution for execution, so it hits the bug exactly as often.
#include <gtest/gtest.h>
#include <pthread.h>
#include <semaphore.h>
#include <sys/mman.h>
#include <weft/weft.hpp>

#include <atomic>
#include <cstdio>
#include <memory>

#include "strategy/registry.hpp"
#include "support/model_program.hpp"

namespace {

std::atomic<int> x, y, z;
sem_t w;
// Counted in memory the exploring child process shares with the test.
std::atomic<unsigned>* g_hits = nullptr;

void* thread_a(void*) {
  const int a1 = x.exchange(2);  // A1
  const int a2 = y.exchange(2);  // A2
  sem_post(&w);                  // A3
  const int a4 = z.exchange(9);  // A4
  if (a1 == 1 && a2 == 1 && a4 == 1) g_hits->fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

void* thread_b(void*) {
  x.store(1);                    // B1
  const int b2 = x.exchange(3);  // B2
  y.store(1);                    // B3
  sem_wait(&w);                  // B4
  y.store(3);                    // B5
  z.store(b2 == 2 ? 1 : 5);      // B6
  return nullptr;
}

void body() {
  x.store(0);
  y.store(0);
  z.store(0);
  sem_init(&w, 0, 0);
  pthread_t a, b;
  pthread_create(&a, nullptr, thread_a, nullptr);
  pthread_create(&b, nullptr, thread_b, nullptr);
  pthread_join(a, nullptr);
  pthread_join(b, nullptr);
}

// The same program as a model, step for step: a yield where a thread starts and ends.
weft::model::Program model_with_thread_steps() {
  using namespace weft::model;
  Program p;
  const ObjectId mx = p.variable("x"), my = p.variable("y"), mz = p.variable("z");
  const ObjectId mw = p.semaphore("w");
  const ThreadIndex main = p.thread("main").index();
  ThreadBuilder a = p.thread("A", false), b = p.thread("B", false);
  enum { kA1, kA2, kA4 };
  enum { kB2 };
  a.yield().exchange(mx, 2, kA1).label("A1").exchange(my, 2, kA2).label("A2");
  a.sem_post(mw).label("A3").exchange(mz, 9, kA4).label("A4").yield();
  b.yield().write(mx, 1).label("B1").exchange(mx, 3, kB2).label("B2").write(my, 1).label("B3");
  b.sem_wait(mw).label("B4").write(my, 3).label("B5");
  b.access(weft::OpKind::AtomicStore, mz, [mz](State& s, ThreadIndex self) {
     s[mz] = s.reg(self, kB2) == 2 ? 1 : 5;
   }).label("B6").yield();
  p.thread_at(main).yield().spawn(a.index()).spawn(b.index()).join(a.index()).join(b.index()).yield();
  p.expect_order("B1 A1 B2 B3 A2 A3 B4 B5 B6 A4");
  return p;
}

unsigned real_hits(const std::string& strategy, std::uint64_t executions) {
  g_hits->store(0);
  weft::Options o;
  o.strategy = strategy;
  o.executions = executions;
  o.seed = 1;
  o.fair = false;  // the model has no fairness bookkeeping
  o.preempt_on = weft::PreemptOn::kSync;  // the test body's own locals are no steps
  o.name = "pos-running-example";
  weft::Result r = weft::explore(body, o);
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.executions(), executions);
  return g_hits->load();
}

class PosRunningExample : public ::testing::TestWithParam<const char*> {
 protected:
  static void SetUpTestSuite() {
    void* p = mmap(nullptr, sizeof(std::atomic<unsigned>), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    g_hits = new (p) std::atomic<unsigned>(0);
  }
};

TEST_P(PosRunningExample, TheRealProgramIsScheduledExactlyLikeItsModel) {
  constexpr std::uint64_t kExecutions = 4000;
  const unsigned real = real_hits(GetParam(), kExecutions);
  std::string error;
  auto strategy = weft::make_strategy(GetParam(), 1, &error);
  ASSERT_NE(strategy, nullptr) << error;
  const weft::model::RunResult model =
      weft::model::run(*strategy, model_with_thread_steps(), kExecutions);
  std::printf("[pos example] %s: %u hits in %llu executions of the real program, %llu of its model\n",
              GetParam(), real, static_cast<unsigned long long>(kExecutions),
              static_cast<unsigned long long>(model.hits));
  EXPECT_EQ(real, model.hits);
  EXPECT_GT(real, 0u);
}

INSTANTIATE_TEST_SUITE_P(Samplers, PosRunningExample,
                         ::testing::Values("random", "pos", "pos*", "pct:3"),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (char& c : n)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
