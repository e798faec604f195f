// choose() runs at every step: once warm, pos, pos* and tb must not allocate at all.
// Replaces the global operator new to count allocations: a binary of its own.
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "strategy/pos.hpp"
#include "strategy/thread_bound.hpp"
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

std::uint64_t allocations(Strategy& s, const model::Program& p, int warm, int measured) {
  model::Executor ex(p);
  for (int i = 0; i < warm && s.next_execution(); ++i) ex.run(s);
  const std::uint64_t before = g_allocations;
  for (int i = 0; i < measured && s.next_execution(); ++i) ex.run(s);
  return g_allocations - before;
}

TEST(SamplerAllocation, PosAndPosStarAllocateNothingOnceWarm) {
  PosStrategy pos(1, false), star(1, true);
  EXPECT_EQ(allocations(pos, model::pos_running_example(true), 100, 2000), 0u);
  EXPECT_EQ(allocations(star, model::pos_running_example(true), 100, 2000), 0u);
}

TEST(SamplerAllocation, ThreadBoundAllocatesNothingOnceWarm) {
  ThreadBoundStrategy tb(1, 3), fragments(1, 3, 4);
  EXPECT_EQ(allocations(tb, model::pos_running_example(true), 100, 2000), 0u);
  EXPECT_EQ(allocations(fragments, model::pos_running_example(true), 100, 2000), 0u);
}

}  // namespace
}  // namespace weft
