// ObjectHistory: what happened to a misused object, oldest first, the destroy in its place
// among the steps and the reported call itself left out.
#include "report/object_history.hpp"

#include <gtest/gtest.h>

#include "records.hpp"

namespace weft {
namespace {

using weft_test::event;

constexpr std::uintptr_t kMutex = 0x7000, kOther = 0x7100, kCond = 0x7200;

BugRecord misuse_bug() {
  const std::uintptr_t a = weft_test::named_site(0).pc, b = weft_test::other_site().pc;
  BugRecord bug;
  bug.kind = BugKind::kApiMisuse;
  bug.thread = 2;
  Event wait = event(1, OpKind::CondWait, kCond, b);
  set_cond_mutex(wait.op, kMutex);
  bug.events = {
      event(1, OpKind::MutexLock, kMutex, a),                  // step 1
      event(1, OpKind::MutexLock, kOther, a),                  // another object
      wait,                                                    // step 3: released
      event(2, OpKind::MutexTryLock, kMutex, b, kFailed),      // failed: took nothing
      event(1, OpKind::MutexUnlock, kMutex, a),                // step 5
      event(2, OpKind::MutexLock, kMutex, b),                  // the reported call
  };
  bug.misuse.object = kMutex;
  bug.misuse.kind = Misuse::Object::kMutex;
  bug.misuse.destroyed_by = 0;
  bug.misuse.destroy_pc = weft_test::named_site(1).pc;
  bug.misuse.destroy_step = 5;  // after step 5
  return bug;
}

TEST(ObjectHistory, StepsOnTheObjectAndItsDestroyInOrder) {
  Symbolizer sym;
  const ObjectHistory h(misuse_bug(), sym);
  ASSERT_EQ(h.entries().size(), 4u);
  EXPECT_EQ(h.omitted(), 0u);
  EXPECT_EQ(h.entries()[0].what, "locked");
  EXPECT_EQ(h.entries()[0].step, 1u);
  EXPECT_EQ(h.entries()[0].where.line, weft_test::named_site(0).line);
  EXPECT_EQ(h.entries()[1].what, "released (pthread_cond_wait)");
  EXPECT_EQ(h.entries()[1].step, 3u);
  EXPECT_EQ(h.entries()[2].what, "unlocked");
  EXPECT_EQ(h.entries()[2].step, 5u);
  EXPECT_EQ(h.entries()[3].what, "destroyed");
  EXPECT_EQ(h.entries()[3].thread, 0u);
  EXPECT_TRUE(h.entries()[3].after_step);
  EXPECT_EQ(h.entries()[3].step, 5u);
  EXPECT_EQ(h.entries()[3].where.line, weft_test::named_site(1).line);
}

TEST(ObjectHistory, KeepsTheNewestAndCountsTheRest) {
  Symbolizer sym;
  BugRecord bug = misuse_bug();
  bug.misuse.destroyed_by = kNoThread;
  bug.events.clear();
  for (int i = 0; i < 10; ++i) bug.events.push_back(event(1, OpKind::MutexLock, kMutex, 0));
  bug.thread = 3;  // the last step is someone else's: history too
  const ObjectHistory h(bug, sym);
  EXPECT_EQ(h.entries().size(), ObjectHistory::kMaxEntries);
  EXPECT_EQ(h.omitted(), 10 - ObjectHistory::kMaxEntries);
  EXPECT_EQ(h.entries().back().step, 10u);
}

TEST(ObjectHistory, NoMisuseNoHistory) {
  Symbolizer sym;
  BugRecord bug = misuse_bug();
  bug.misuse = Misuse{};
  EXPECT_TRUE(ObjectHistory(bug, sym).entries().empty());
  EXPECT_STREQ(ObjectHistory::noun(Misuse::Object::kBarrier), "barrier");
}

}  // namespace
}  // namespace weft
