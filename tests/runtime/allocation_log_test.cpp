#include "runtime/allocation_log.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace weft::rt {
namespace {

Allocation block(std::uintptr_t address, std::uint64_t size, std::uint64_t step) {
  Allocation a;
  a.address = address;
  a.size = size;
  a.step = step;
  a.thread = 0;
  return a;
}

Event touch(std::uintptr_t address, OpKind kind = OpKind::Read) {
  Event e;
  e.thread = 0;
  e.op = make_op(kind, address, 0);
  return e;
}

TEST(AllocationLog, KeepsTheBlocksTheStepsTouchedInAllocationOrder) {
  auto log = std::make_unique<AllocationLog>();
  log->add(block(0x1000, 16, 0));
  log->add(block(0x2000, 64, 0));  // never touched
  log->add(block(0x3000, 8, 1));
  BugRecord bug;
  bug.events = {touch(0x1000), touch(0x1008, OpKind::MutexLock), touch(0x3004)};
  const std::vector<Allocation> used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used[0].address, 0x1000u);
  EXPECT_EQ(used[1].address, 0x3000u);
}

TEST(AllocationLog, AReusedAddressNamesTheBlockItWasInWhenLastTouched) {
  auto log = std::make_unique<AllocationLog>();
  log->add(block(0x1000, 16, 0));  // freed after step 1, then the same memory again:
  log->add(block(0x1000, 32, 2));
  BugRecord bug;
  bug.events = {touch(0x1000), touch(0x9000)};  // touched at step 0 only: the first block
  std::vector<Allocation> used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].size, 16u);
  bug.events = {touch(0x9000), touch(0x9000), touch(0x9000), touch(0x1010)};  // step 3
  used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 1u);
  EXPECT_EQ(used[0].size, 32u);
}

TEST(AllocationLog, MemoryFreedAndAllocatedAgainIsTwoBlocks) {
  auto log = std::make_unique<AllocationLog>();
  log->add(block(0x1000, 16, 0));
  log->add(block(0x1000, 16, 2));  // the same memory, after a free
  BugRecord bug;
  bug.events = {touch(0x1008), touch(0x9000), touch(0x9000), touch(0x1008)};  // steps 0 and 3
  const std::vector<Allocation> used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used[0].step, 0u);
  EXPECT_EQ(used[1].step, 2u);
}

TEST(AllocationLog, ThreadsDescriptorsAndBlockedThreadsAndRaces) {
  auto log = std::make_unique<AllocationLog>();
  log->add(block(0x10, 8, 0));  // addresses that are also small thread ids / descriptors
  log->add(block(0x5000, 8, 0));
  log->add(block(0x6000, 8, 0));
  BugRecord bug;
  Event create = touch(0, OpKind::ThreadCreate);
  create.op.aux = 0x10;
  Event fd = touch(0x11, OpKind::FdWait);
  bug.events = {create, fd};
  bug.blocked = {{1, make_op(OpKind::MutexLock, 0x5000, 0)}};
  bug.has_race = true;
  bug.race.address = 0x6004;
  const std::vector<Allocation> used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 2u);
  EXPECT_EQ(used[0].address, 0x5000u);
  EXPECT_EQ(used[1].address, 0x6000u);
}

TEST(AllocationLog, ARingForgetsTheOldestAndClearsPerExecution) {
  auto log = std::make_unique<AllocationLog>();
  log->add(block(0x1000, 8, 0));
  for (std::uint64_t i = 0; i < AllocationLog::kCapacity; ++i) log->add(block(0x100000 + 16 * i, 8, 0));
  BugRecord bug;
  bug.events = {touch(0x1000), touch(0x100000)};
  std::vector<Allocation> used = log->touched_by(bug);
  ASSERT_EQ(used.size(), 1u);  // 0x1000 was overwritten
  EXPECT_EQ(used[0].address, 0x100000u);
  log->clear();
  EXPECT_TRUE(log->touched_by(bug).empty());
}

}  // namespace
}  // namespace weft::rt
