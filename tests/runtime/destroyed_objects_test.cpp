// DestroyedObjects: which objects this execution destroyed, and by whom, until made again.
#include "runtime/destroyed_objects.hpp"

#include <gtest/gtest.h>

namespace weft::rt {
namespace {

TEST(DestroyedObjects, RemembersWhoDestroyedAnObjectUntilItIsInitialisedAgain) {
  DestroyedObjects d;
  EXPECT_FALSE(d.contains(0x1000));
  d.destroyed(0x1000, 2, 0xabc, 17);
  EXPECT_TRUE(d.contains(0x1000));
  EXPECT_FALSE(d.contains(0x1008));
  const Misuse m = d.misuse(0x1000, Misuse::Object::kMutex);
  EXPECT_EQ(m.object, 0x1000u);
  EXPECT_EQ(m.kind, Misuse::Object::kMutex);
  EXPECT_EQ(m.destroyed_by, 2u);
  EXPECT_EQ(m.destroy_pc, 0xabcu);
  EXPECT_EQ(m.destroy_step, 17u);
  d.initialised(0x1000);
  EXPECT_FALSE(d.contains(0x1000));
}

TEST(DestroyedObjects, AnObjectNeverDestroyedHasNoDestroyAndANewExecutionForgetsAll) {
  DestroyedObjects d;
  const Misuse m = d.misuse(0x2000, Misuse::Object::kCondition);
  EXPECT_EQ(m.object, 0x2000u);
  EXPECT_EQ(m.destroyed_by, kNoThread);
  d.initialised(0x2000);  // nothing destroyed: nothing to forget
  d.destroyed(0x2000, 0, 0x1, 0);
  d.reset();
  EXPECT_FALSE(d.contains(0x2000));
}

}  // namespace
}  // namespace weft::rt
