// weft's own heap: every size and alignment a malloc family call can ask for, blocks told
// apart from glibc's by address, freed blocks reused by their class.
#include "runtime/internal_heap.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

using weft::rt::InternalHeap;

namespace {

std::uintptr_t at(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(InternalHeap, BlocksHoldWhatWasAskedAndAreAligned) {
  std::vector<void*> blocks;
  for (std::size_t n : {0ul, 1ul, 15ul, 16ul, 17ul, 100ul, 128ul, 129ul, 4096ul, 100000ul, 3ul << 20}) {
    void* p = InternalHeap::allocate(n);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_TRUE(InternalHeap::owns(p));
    EXPECT_EQ(at(p) % 16, 0u) << n;
    EXPECT_GE(InternalHeap::usable_size(p), n);
    EXPECT_LE(InternalHeap::usable_size(p), n + n / 4 + 16) << "at most a quarter wasted";
    std::memset(p, 0xab, n);
    blocks.push_back(p);
  }
  for (std::size_t a : {32ul, 64ul, 4096ul, 1ul << 16}) {
    void* p = InternalHeap::allocate(40, a);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(at(p) % a, 0u) << a;
    EXPECT_GE(InternalHeap::usable_size(p), 40u);
    std::memset(p, 0xcd, 40);
    blocks.push_back(p);
  }
  for (void* p : blocks) InternalHeap::free(p);
}

TEST(InternalHeap, AFreedBlockIsReusedAndZeroedWhenAsked) {
  void* p = InternalHeap::allocate(200);
  std::memset(p, 0xff, 200);
  InternalHeap::free(p);
  auto* q = static_cast<unsigned char*>(InternalHeap::allocate(190, 16, /*zero=*/true));
  EXPECT_EQ(static_cast<void*>(q), p) << "the newest free block of the class";
  for (int i = 0; i < 190; ++i) ASSERT_EQ(q[i], 0) << i;
  InternalHeap::free(q);
}

TEST(InternalHeap, ReallocateKeepsTheContents) {
  auto* p = static_cast<char*>(InternalHeap::allocate(10));
  std::memcpy(p, "0123456789", 10);
  auto* q = static_cast<char*>(InternalHeap::reallocate(p, 5000));
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(std::memcmp(q, "0123456789", 10), 0);
  auto* r = static_cast<char*>(InternalHeap::reallocate(q, 8));
  EXPECT_EQ(std::memcmp(r, "01234567", 8), 0);
  EXPECT_LT(InternalHeap::usable_size(r), 5000u) << "a much smaller block gives the rest back";
  InternalHeap::free(r);
}

TEST(InternalHeap, GlibcBlocksAndImpossibleSizesAreNotItsOwn) {
  void* p = std::malloc(64);  // this test is not linked with weft's malloc
  EXPECT_FALSE(InternalHeap::owns(p));
  std::free(p);
  EXPECT_FALSE(InternalHeap::owns(nullptr));
  EXPECT_EQ(InternalHeap::allocate(std::size_t{1} << 62), nullptr);
  EXPECT_EQ(InternalHeap::allocate(8, std::size_t{1} << 40), nullptr);
}

}  // namespace

TEST(InternalHeap, AKeepScopeAllocatesFromTheKeptArena) {
  void* main_block = InternalHeap::allocate(64);
  void* kept_block = nullptr;
  {
    InternalHeap::KeepScope keep;
    EXPECT_TRUE(InternalHeap::keeping());
    kept_block = InternalHeap::allocate(64);
    {
      InternalHeap::KeepScope off(false);  // no effect
      EXPECT_TRUE(InternalHeap::keeping());
    }
  }
  EXPECT_FALSE(InternalHeap::keeping());
  ASSERT_NE(kept_block, nullptr);
  EXPECT_TRUE(InternalHeap::owns(kept_block));
  EXPECT_TRUE(InternalHeap::kept(kept_block));
  EXPECT_FALSE(InternalHeap::kept(main_block));
  EXPECT_GE(at(kept_block), InternalHeap::kept_begin());
  EXPECT_LT(at(kept_block), InternalHeap::kept_begin() + InternalHeap::kept_size());
  // Grown outside any scope, a kept block stays kept; freed, it is the kept arena's again.
  void* grown = InternalHeap::reallocate(kept_block, 5000);
  EXPECT_TRUE(InternalHeap::kept(grown));
  InternalHeap::free(grown);
  {
    InternalHeap::KeepScope keep;
    void* again = InternalHeap::allocate(5000);
    EXPECT_EQ(again, grown) << "the newest free block of the kept arena's class";
    InternalHeap::free(again);
  }
  // The main arena's unused range starts past every block it gave.
  std::uintptr_t begin = 0, end = 0;
  InternalHeap::unused(&begin, &end);
  EXPECT_GT(begin, at(main_block));
  EXPECT_GT(end, begin);
  InternalHeap::free(main_block);
}

TEST(InternalHeap, PastARestoreFreshBlocksAskedZeroedAreZeroed) {
  // As after a restore: memory past the unused mark holds an earlier execution's bytes.
  std::uintptr_t begin = 0, end = 0;
  InternalHeap::unused(&begin, &end);
  std::memset(reinterpret_cast<void*>(begin), 0x5a, 4096);
  InternalHeap::set_reused();
  auto* q = static_cast<unsigned char*>(InternalHeap::allocate(1000, 16, /*zero=*/true));
  ASSERT_GE(at(q), begin);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(q[i], 0) << i;
  InternalHeap::free(q);
}
