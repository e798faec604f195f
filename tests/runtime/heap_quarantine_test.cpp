#include "runtime/heap_quarantine.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace weft::rt {
namespace {

FreedBlock block(std::uintptr_t address, std::size_t size) {
  return FreedBlock{address, size, 1, 0x400000, 3, false};
}

TEST(HeapQuarantine, HoldsBlocksUntilTheBytesBoundThenReleasesTheOldestFirst) {
  HeapQuarantine q;
  std::vector<std::uintptr_t> released;
  auto release = [&](const FreedBlock& b) { released.push_back(b.address); };
  const std::size_t size = HeapQuarantine::kMaxBlock;
  const std::size_t fit = HeapQuarantine::kMaxBytes / size;
  for (std::size_t i = 0; i < fit; ++i) q.keep(block(0x100000 * (i + 1), size), release);
  EXPECT_TRUE(released.empty());
  EXPECT_EQ(q.bytes(), fit * size);
  q.keep(block(0x100000 * (fit + 1), size), release);
  q.keep(block(0x100000 * (fit + 2), size), release);
  EXPECT_EQ(released, (std::vector<std::uintptr_t>{0x100000, 0x200000}));
  EXPECT_EQ(q.count(), fit);
  EXPECT_LE(q.bytes(), HeapQuarantine::kMaxBytes);
}

TEST(HeapQuarantine, HoldsAtMostItsCapacityOfBlocks) {
  HeapQuarantine q;
  std::size_t released = 0;
  auto release = [&](const FreedBlock& b) {
    EXPECT_EQ(b.address, 16 * (released + 1));  // oldest first
    ++released;
  };
  for (std::size_t i = 1; i <= HeapQuarantine::kCapacity + 3; ++i) q.keep(block(16 * i, 16), release);
  EXPECT_EQ(released, 3u);
  EXPECT_EQ(q.count(), HeapQuarantine::kCapacity);
  q.clear(release);
  EXPECT_EQ(released, HeapQuarantine::kCapacity + 3);
  EXPECT_EQ(q.count(), 0u);
  EXPECT_EQ(q.bytes(), 0u);
}

TEST(HeapQuarantine, FindsTheBlockThatHoldsAnAddressOrOverlapsARange) {
  HeapQuarantine q;
  auto release = [](const FreedBlock&) { FAIL(); };
  q.keep(block(0x1000, 48), release);
  q.keep(block(0x2000, 16), release);
  ASSERT_NE(q.find(0x1000), nullptr);
  EXPECT_EQ(q.find(0x1000)->address, 0x1000u);
  EXPECT_EQ(q.find(0x102f)->address, 0x1000u);
  EXPECT_EQ(q.find(0x1030), nullptr);
  EXPECT_EQ(q.find(0xff0, 0x20)->address, 0x1000u);  // a range that starts before it
  EXPECT_EQ(q.find(0x200f)->address, 0x2000u);
  EXPECT_EQ(q.find(0x3000), nullptr);
}

TEST(HeapQuarantine, KeepsOnlyBlocksOfBoundedSize) {
  EXPECT_FALSE(HeapQuarantine::keeps(0));
  EXPECT_TRUE(HeapQuarantine::keeps(48));
  EXPECT_TRUE(HeapQuarantine::keeps(HeapQuarantine::kMaxBlock));
  EXPECT_FALSE(HeapQuarantine::keeps(HeapQuarantine::kMaxBlock + 1));
}

}  // namespace
}  // namespace weft::rt
