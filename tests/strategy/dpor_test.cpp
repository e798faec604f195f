// dpor (Flanagan and Godefroid, POPL'05, with sleep sets) on model programs, against
// brute force: on many random programs the happens-before classes it explores are
// exactly every class plain dfs finds by running every schedule, and it says how many of
// its executions were redundant (sleep-set blocked). Exact counts where theory gives them.
#include "strategy/dpor.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "strategy/dfs.hpp"
#include "strategy/registry.hpp"
#include "support/hb_classes.hpp"
#include "support/model_program.hpp"
#include "support/random_model_program.hpp"

namespace weft {
namespace {

using model::Program;

std::uint64_t factorial(std::uint64_t n) { return n <= 1 ? 1 : n * factorial(n - 1); }

// n threads, each k times: lock m; x = x + 1 (a read and a write); unlock m.
Program locked_counter(std::size_t n, std::size_t k) {
  Program p;
  const auto x = p.variable("x");
  const auto m = p.mutex("m");
  for (std::size_t t = 0; t < n; ++t) {
    model::ThreadBuilder b = p.thread("T" + std::to_string(t));
    for (std::size_t i = 0; i < k; ++i) b.lock(m).read(x, 0).write(x, 1).unlock(m);
  }
  return p;
}

struct Comparison {
  std::uint64_t all_classes = 0;
  std::uint64_t dpor_executions = 0;
  std::uint64_t dpor_redundant = 0;
};

Comparison compare_with_brute_force(const Program& p, const std::string& what,
                                    bool sleep_sets = true) {
  DfsStrategy dfs;
  const model::ClassCount all = model::collect_classes(dfs, p);
  DporStrategy dpor(sleep_sets);
  const model::ClassCount got = model::collect_classes(dpor, p);
  EXPECT_TRUE(all.exhausted && got.exhausted) << what;
  EXPECT_EQ(got.classes, all.classes) << what << ": dpor explored " << got.classes.size()
                                      << " of " << all.classes.size() << " classes";
  // What the strategy claims matches what it did.
  if (sleep_sets) {
    EXPECT_EQ(got.executions - got.classes.size(), dpor.redundant_executions()) << what;
    EXPECT_EQ(got.coverage.classes, got.classes.size()) << what;
  }
  EXPECT_TRUE(got.coverage.complete) << what << ": " << got.coverage.summary;
  EXPECT_EQ(got.coverage.kind, CoverageKind::kFull);
  return {all.classes.size(), got.executions, dpor.redundant_executions()};
}

// compare_with_brute_force on 150 random programs (seeds 1-150), summed and printed (how
// much work sleep sets leave redundant, for the record).
Comparison compare_random_programs(const char* what, bool blocking, bool tries,
                                   bool rwlocks = false) {
  Comparison sum;
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const std::string label = std::string(what) + " seed " + std::to_string(seed);
    const Comparison c =
        compare_with_brute_force(model::random_program(seed, blocking, tries, rwlocks), label);
    sum.all_classes += c.all_classes;
    sum.dpor_executions += c.dpor_executions;
    sum.dpor_redundant += c.dpor_redundant;
  }
  std::printf("150 %s programs: %llu classes, %llu dpor executions, %llu redundant\n", what,
              static_cast<unsigned long long>(sum.all_classes),
              static_cast<unsigned long long>(sum.dpor_executions),
              static_cast<unsigned long long>(sum.dpor_redundant));
  return sum;
}

TEST(Dpor, ExploresEveryClassOfRandomProgramsOfAccessesAndLocks) {
  const Comparison c = compare_random_programs("access-and-lock", false, false);
  EXPECT_EQ(c.dpor_executions, c.all_classes + c.dpor_redundant);
}

// Failed try-locks and semaphore try-waits read and change nothing; a try of the holder's
// own mutex or of a semaphore it emptied once hid the step that took it, and dpor missed
// whole orders.
TEST(Dpor, ExploresEveryClassOfRandomProgramsWithTryLocksAndTryWaits) {
  const Comparison c = compare_random_programs("try-lock and try-wait", false, true);
  EXPECT_EQ(c.dpor_executions, c.all_classes + c.dpor_redundant);
}

TEST(Dpor, ExploresEveryClassOfRandomProgramsWithReaderWriterLocks) {
  const Comparison c = compare_random_programs("rwlock", false, false, true);
  EXPECT_EQ(c.dpor_executions, c.all_classes + c.dpor_redundant);
}

TEST(Dpor, SleepSetsSaveExecutionsAndLoseNoClass) {
  std::uint64_t with = 0, without = 0;
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const Program p = model::random_program(seed, true);
    DporStrategy plain(false), sleeping(true);
    const model::ClassCount a = model::collect_classes(plain, p);
    const model::ClassCount b = model::collect_classes(sleeping, p);
    EXPECT_EQ(a.classes, b.classes) << "seed " << seed;
    with += b.executions;
    without += a.executions;
  }
  std::printf("60 programs: dpor %llu executions with sleep sets, %llu without\n",
              static_cast<unsigned long long>(with), static_cast<unsigned long long>(without));
  EXPECT_LT(with, without);
}

TEST(Dpor, ExploresEveryClassOfRandomProgramsThatBlock) {
  compare_random_programs("semaphore-and-event", true, false);
}

TEST(Dpor, LockedCounterHasOneExecutionPerLockOrder) {
  // n threads of k critical sections: (n*k)! / (k!)^n orders of the lock acquisitions,
  // and the accesses inside add no class. No execution is redundant.
  struct Case {
    std::size_t n, k;
  };
  for (const Case c : {Case{2, 1}, Case{2, 2}, Case{3, 1}, Case{3, 2}, Case{2, 3}}) {
    std::uint64_t expected = factorial(c.n * c.k);
    for (std::size_t t = 0; t < c.n; ++t) expected /= factorial(c.k);
    DporStrategy dpor;
    const model::ClassCount got = model::collect_classes(dpor, locked_counter(c.n, c.k));
    EXPECT_TRUE(got.exhausted);
    EXPECT_EQ(got.classes.size(), expected) << c.n << "x" << c.k;
    EXPECT_EQ(got.executions, expected) << c.n << "x" << c.k;
    EXPECT_EQ(dpor.redundant_executions(), 0u);
  }
}

TEST(Dpor, IndependentThreadsAndReadersAreOneClass) {
  Program independent;
  const auto x = independent.variable("x"), y = independent.variable("y");
  independent.thread("A").write(x, 1).write(x, 2).read(x, 0);
  independent.thread("B").write(y, 1).read(y, 1).write(y, 2);
  Program readers;
  const auto z = readers.variable("z");
  for (int t = 0; t < 3; ++t) readers.thread("R" + std::to_string(t)).read(z, 0).read(z, 1);
  for (const Program* p : {&independent, &readers}) {
    DporStrategy dpor;
    const model::ClassCount got = model::collect_classes(dpor, *p);
    EXPECT_EQ(got.executions, 1u);
    EXPECT_TRUE(got.coverage.complete) << got.coverage.summary;
  }
}

TEST(Dpor, FindsTheBugOfALostUpdate) {
  Program p;
  const auto x = p.variable("x");
  p.thread("A").read(x, 0).access(OpKind::Write, x, [](model::State& s, model::ThreadIndex t) {
    s[0] = s.reg(t, 0) + 1;
  });
  p.thread("B").read(x, 0).access(OpKind::Write, x, [](model::State& s, model::ThreadIndex t) {
    s[0] = s.reg(t, 0) + 1;
  });
  p.expect_final([](const model::State& s) { return s.objects[0] == 2; }, "lost update");
  DporStrategy dpor;
  const model::RunResult r = model::run(dpor, p, 0);
  EXPECT_GT(r.hits, 0u);
  EXPECT_TRUE(r.exhausted);
}

TEST(Dpor, TheRegistryMakesItWithoutStateCaching) {
  std::string error;
  auto s = make_strategy("dpor", 0, &error);
  ASSERT_NE(s, nullptr) << error;
  EXPECT_EQ(dynamic_cast<TreeStrategy&>(*s).state_cache(), nullptr);
  EXPECT_EQ(make_strategy("dpor:3", 0, &error), nullptr);
  EXPECT_NE(error.find("dpor takes no argument"), std::string::npos) << error;
}

// Two threads taking two mutexes in opposite orders, each after a step of its own: three
// classes (either thread's whole critical section first, and the deadlock). The blocked
// steps a deadlock leaves (each thread's lock of the mutex the other holds) race with the
// other thread's lock of it: reversing them is the third class.
TEST(Dpor, LockOrderInversionHasThreeClasses) {
  Program p;
  const auto a = p.mutex("a"), b = p.mutex("b"), x = p.variable("x"), y = p.variable("y");
  p.thread("T1").read(x, 0).lock(a).lock(b).unlock(b).unlock(a);
  p.thread("T2").read(y, 0).lock(b).lock(a).unlock(a).unlock(b);
  p.deadlock_is_bug(false);
  DfsStrategy dfs;
  const model::ClassCount all = model::collect_classes(dfs, p);
  DporStrategy dpor;
  const model::ClassCount got = model::collect_classes(dpor, p);
  EXPECT_EQ(all.classes.size(), 3u);
  EXPECT_EQ(got.classes, all.classes);
}

}  // namespace
}  // namespace weft
