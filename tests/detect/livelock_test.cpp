// Livelock verdicts on synthetic windows of steps: what counts as progress past the step
// bound, and what the report says.
#include "detect/livelock.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace weft::detect {
namespace {

Event step(ThreadId t, OpKind kind, std::uintptr_t object = 0x100, std::uint8_t flags = 0) {
  Event e;
  e.thread = t;
  e.op = make_op(kind, object);
  e.flags = flags;
  return e;
}

// Two threads spinning on loads, each yielding (fairness saw the spin).
std::vector<Event> spinning() {
  std::vector<Event> w;
  for (int i = 0; i < 20; ++i) w.push_back(step(i % 2 + 1, OpKind::AtomicLoad, 0x100, kYielded));
  return w;
}

TEST(Livelock, AYieldingSpinIsNoProgress) {
  const std::vector<Event> w = spinning();
  EXPECT_FALSE(progressing(w, std::vector<ThreadId>{1, 2}));
}

TEST(Livelock, ACompareExchangeThatChangedMemoryIsWorkNotASpin) {
  std::vector<Event> w;
  for (int i = 0; i < 20; ++i) w.push_back(step(1, OpKind::AtomicCas, 0x100, kYielded));  // succeeded
  EXPECT_TRUE(progressing(w, std::vector<ThreadId>{1}));
  w.push_back(step(1, OpKind::AtomicCas, 0x100, kYielded | kUnchanged));  // a failed one spins
  EXPECT_FALSE(progressing(w, std::vector<ThreadId>{1}));
}

// A loop that stores while it waits looks like no spin, but starves an enabled thread:
// no progress, unless the runners synchronise or change many objects.
TEST(Livelock, AnEnabledThreadThatNeverRanIsStarved) {
  std::vector<Event> w;
  for (int i = 0; i < 20; ++i) w.push_back(step(1, OpKind::Write, 0x100));
  EXPECT_TRUE(progressing(w, std::vector<ThreadId>{1}));
  EXPECT_FALSE(progressing(w, std::vector<ThreadId>{1, 2}));
  std::vector<Event> locking = w;
  locking.push_back(step(1, OpKind::MutexLock, 0x200));
  EXPECT_TRUE(progressing(locking, std::vector<ThreadId>{1, 2}));
  std::vector<Event> many;
  for (std::uintptr_t i = 0; i < 16; ++i) many.push_back(step(1, OpKind::AtomicRmw, 0x1000 + 8 * i));
  EXPECT_TRUE(progressing(many, std::vector<ThreadId>{1, 2}));
}

TEST(Livelock, TheReportNamesWhoRanAndWhetherTheyYielded) {
  const Livelock spin = describe_livelock(spinning(), 5000, true);
  EXPECT_EQ(spin.message,
            "livelock: the execution exceeded 5000 steps under fair scheduling; T1, T2 kept "
            "running and yielding in the last 20 steps without changing memory");
  ASSERT_EQ(spin.runners.size(), 2u);
  EXPECT_EQ(spin.runners[0].thread, 1u);
  EXPECT_EQ(spin.runners[1].op.kind, OpKind::AtomicLoad);

  std::vector<Event> selfish = spinning();
  selfish.push_back(step(3, OpKind::Read));
  EXPECT_EQ(describe_livelock(selfish, 5000, true).message,
            "livelock: good-samaritan violation: T3 ran in the last 21 steps of 5000 without ever "
            "yielding, so a spin loop starves the thread it waits for");
  EXPECT_EQ(describe_livelock(selfish, 5000, false).message,
            "possible livelock: the execution exceeded 5000 steps (fair scheduling off: the "
            "schedule may just starve a thread); T1, T2, T3 ran in the last 21 steps");

  std::vector<Event> writing;
  for (int i = 0; i < 20; ++i) writing.push_back(step(1, OpKind::AtomicStore, 0x100, kYielded));
  EXPECT_NE(describe_livelock(writing, 5000, true).message.find("most of them writing memory (20 writes)"),
            std::string::npos);
}

}  // namespace
}  // namespace weft::detect
