// choose() runs at every step of every execution: once warm, the strategies (and the
// model executor driving them) must not allocate at all.
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "strategy/dfs.hpp"
#include "strategy/pct.hpp"
#include "strategy/random_walk.hpp"
#include "support/example_programs.hpp"
#include "support/model_program.hpp"

namespace {
std::uint64_t g_allocations = 0;  // the tests are single-threaded
}  // namespace

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace weft {
namespace {

// Allocations during `measured` executions that follow `warm` ones.
std::uint64_t allocations(Strategy& s, const model::Program& p, int warm, int measured) {
  model::Executor ex(p);
  for (int i = 0; i < warm && s.next_execution(); ++i) ex.run(s);
  const std::uint64_t before = g_allocations;
  for (int i = 0; i < measured && s.next_execution(); ++i) ex.run(s);
  return g_allocations - before;
}

TEST(Allocation, RandomWalkAllocatesNothingOnceWarm) {
  RandomWalkStrategy s(1);
  EXPECT_EQ(allocations(s, model::pos_running_example(true), 100, 2000), 0u);
}

TEST(Allocation, PctAllocatesNothingOnceWarm) {
  PctStrategy s(1, 5);
  EXPECT_EQ(allocations(s, model::pos_running_example(true), 100, 2000), 0u);
}

TEST(Allocation, DfsAllocatesNothingOnceItsTreeHasPeaked) {
  // 34650 executions; the node pool, frontier and decision buffers reach their size early.
  DfsStrategy s;
  EXPECT_EQ(allocations(s, model::independent_threads(3, 4), 1000, 40000), 0u);
  EXPECT_TRUE(s.exhausted());
}

}  // namespace
}  // namespace weft
