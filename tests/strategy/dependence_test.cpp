// The dependence relation partial-order reduction and state caching reason with: a free
// writes its whole block; a process exit conflicts with everything.
#include "strategy/dependence.hpp"

#include <gtest/gtest.h>

#include "core/event.hpp"

namespace weft {
namespace {

Op free_of(std::uintptr_t base, std::uint32_t size) {
  return make_op(OpKind::Free, base, 0, static_cast<std::uint16_t>(size), size);
}

TEST(Dependence, AFreeConflictsWithEveryObjectInItsBlockAndNoOther) {
  const Op block = free_of(0x1000, 48);
  EXPECT_TRUE(dependent(0, block, 1, make_op(OpKind::Read, 0x1000, 0, 4)));
  EXPECT_TRUE(dependent(0, block, 1, make_op(OpKind::Read, 0x1028, 0, 4)));
  EXPECT_TRUE(dependent(1, make_op(OpKind::MutexLock, 0x1008), 0, block)) << "a mutex inside";
  EXPECT_TRUE(dependent(0, block, 1, make_op(OpKind::AtomicLoad, 0x102f, 0, 1)));
  EXPECT_FALSE(dependent(0, block, 1, make_op(OpKind::Read, 0x1030, 0, 4))) << "just past it";
  EXPECT_FALSE(dependent(0, block, 1, make_op(OpKind::Read, 0x0ff8, 0, 8)));
  EXPECT_TRUE(dependent(0, block, 1, free_of(0x1020, 64))) << "overlapping blocks";
  EXPECT_FALSE(dependent(0, block, 1, free_of(0x1030, 64)));
}

TEST(Dependence, AProcessExitConflictsWithEverything) {
  const Op exit = make_op(OpKind::ProcessExit);
  EXPECT_TRUE(dependent(0, exit, 1, make_op(OpKind::ThreadStart)));
  EXPECT_TRUE(dependent(1, make_op(OpKind::Read, 0x1000, 0, 4), 0, exit));
  Event failing;
  failing.thread = 0;
  failing.op = make_op(OpKind::Read, 0x1000, 0, 4);
  EXPECT_FALSE(ends_process(failing));
  failing.flags |= kEndsProcess;
  EXPECT_TRUE(ends_process(failing)) << "the last step before a failure";
}

}  // namespace
}  // namespace weft
