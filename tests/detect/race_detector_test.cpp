// The race detector on hand-made executions: each synchronisation kind orders (or fails to
// order) two accesses, and the detector must say exactly which pairs race.
#include "detect/race_detector.hpp"

#include <gtest/gtest.h>

namespace weft::detect {
namespace {

constexpr std::uintptr_t kX = 0x10000, kM = 0x20000, kFlag = 0x30000;

class Races : public ::testing::Test {
 protected:
  void step(ThreadId t, OpKind kind, std::uintptr_t obj = 0, std::uint32_t aux = 0,
            std::uint8_t flags = 0, std::uintptr_t wait_mutex = 0) {
    Event e;
    e.thread = t;
    e.flags = flags;
    e.op = make_op(kind, obj, 0, 0, aux);
    d_.step(e, wait_mutex);
  }
  void create(ThreadId parent, ThreadId child) { step(parent, OpKind::ThreadCreate, 0, child); }
  bool write(ThreadId t, std::uintptr_t a = kX, std::size_t size = 4, std::uintptr_t pc = 0) {
    return d_.access(t, a, size, true, pc ? pc : 0x400000 + t, &race_);
  }
  bool read(ThreadId t, std::uintptr_t a = kX, std::size_t size = 4, std::uintptr_t pc = 0) {
    return d_.access(t, a, size, false, pc ? pc : 0x500000 + t, &race_);
  }
  bool atomic(ThreadId t, OpKind kind, std::uint8_t order_flags, std::uintptr_t obj = kFlag) {
    Op op = make_op(kind, obj, 0x600000 + t, kind == OpKind::Fence ? 0 : 4);
    op.flags |= order_flags;
    return d_.atomic(t, op, &race_);
  }

  RaceDetector d_;
  DataRace race_;
};

TEST_F(Races, UnorderedWritesRaceAndTheReportNamesBothAccesses) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1, kX, 4, 0x1111));
  EXPECT_TRUE(read(2, kX, 4, 0x2222));
  EXPECT_EQ(race_.address, kX);
  EXPECT_EQ(race_.earlier.thread, 1u);
  EXPECT_EQ(race_.earlier.pc, 0x1111u);
  EXPECT_TRUE(race_.earlier.write);
  EXPECT_EQ(race_.later.thread, 2u);
  EXPECT_EQ(race_.later.pc, 0x2222u);
  EXPECT_FALSE(race_.later.write);
  EXPECT_EQ(race_.later.size, 4u);
}

// Two writes of one thread in one epoch (a constructor's, then the program's own): a
// racing read names the later one, so that it too becomes a scheduling point.
TEST_F(Races, ARaceNamesTheLastAccessOfAnEpoch) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1, kX, 4, 0x1111));
  EXPECT_FALSE(write(1, kX, 4, 0x1122));
  EXPECT_TRUE(read(2, kX, 4, 0x2222));
  EXPECT_EQ(race_.earlier.pc, 0x1122u);
  EXPECT_EQ(race_.later.pc, 0x2222u);
  // Reads alike: a write racing with two reads of one epoch names the later read.
  EXPECT_FALSE(read(1, kX + 8, 4, 0x3333));
  EXPECT_FALSE(read(1, kX + 8, 4, 0x3344));
  EXPECT_TRUE(write(2, kX + 8, 4, 0x4444));
  EXPECT_EQ(race_.earlier.pc, 0x3344u);
}

TEST_F(Races, ReadsNeverRaceWithReads) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(read(1));
  EXPECT_FALSE(read(2));
  EXPECT_TRUE(write(0));  // ...but a write races with both
}

TEST_F(Races, CreateAndJoinOrder) {
  EXPECT_FALSE(write(0));
  create(0, 1);
  EXPECT_FALSE(write(1));  // after the parent's write: create orders it
  step(1, OpKind::ThreadExit);
  step(0, OpKind::ThreadJoin, 0, 1);
  EXPECT_FALSE(read(0));  // after the child's: join orders it
}

TEST_F(Races, AParentRacesWithItsChildAfterCreate) {
  create(0, 1);
  EXPECT_FALSE(write(1));
  EXPECT_TRUE(write(0));
}

TEST_F(Races, AMutexOrdersItsCriticalSections) {
  create(0, 1);
  step(0, OpKind::MutexLock, kM);
  EXPECT_FALSE(write(0));
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::MutexLock, kM);
  EXPECT_FALSE(write(1));
  step(1, OpKind::MutexUnlock, kM);
}

TEST_F(Races, TheWrongMutexOrdersNothing) {
  create(0, 1);
  step(0, OpKind::MutexLock, kM);
  EXPECT_FALSE(write(0));
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::MutexLock, kM + 64);
  EXPECT_TRUE(write(1));
}

TEST_F(Races, AFailedTryLockOrdersNothing) {
  create(0, 1);
  EXPECT_FALSE(write(0));
  step(0, OpKind::MutexUnlock, kM);  // (a release by 0, say of a lock it held)
  step(1, OpKind::MutexTryLock, kM, 0, kFailed);
  EXPECT_TRUE(write(1));
}

TEST_F(Races, ReadersOfAnRwLockDoNotOrderEachOther) {
  create(0, 1);
  create(0, 2);
  step(1, OpKind::RwReadLock, kM);
  EXPECT_FALSE(write(1));  // a write under a read lock...
  step(1, OpKind::RwUnlock, kM);
  step(2, OpKind::RwReadLock, kM);
  EXPECT_TRUE(write(2));  // ...races with another reader's
  step(2, OpKind::RwUnlock, kM);
  step(0, OpKind::RwWriteLock, kM);
  EXPECT_FALSE(write(0));  // a writer comes after every reader
  step(0, OpKind::RwUnlock, kM);
  step(1, OpKind::RwReadLock, kM);
  EXPECT_FALSE(read(1));  // and a reader after the writer
}

TEST_F(Races, ConditionVariableWaitReleasesAndReacquiresTheMutex) {
  create(0, 1);
  step(1, OpKind::MutexLock, kM);
  step(1, OpKind::CondWait, kFlag, 0, 0, kM);
  step(0, OpKind::MutexLock, kM);
  EXPECT_FALSE(write(0));
  step(0, OpKind::CondSignal, kFlag);
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::CondWake, kFlag, 0, 0, kM);
  EXPECT_FALSE(read(1));
}

TEST_F(Races, SignallingBeforeWritingLeavesTheWriteUnordered) {
  create(0, 1);
  step(0, OpKind::CondSignal, kFlag);
  EXPECT_FALSE(write(0));
  step(1, OpKind::CondWake, kFlag, 0, 0, kM);
  EXPECT_TRUE(read(1));
}

TEST_F(Races, SemaphoresBarriersOnceAndFutexesOrder) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1, kX));
  step(1, OpKind::SemPost, kM);
  step(2, OpKind::SemWait, kM);
  EXPECT_FALSE(read(2, kX));
  EXPECT_FALSE(write(1, kX + 8));
  step(1, OpKind::BarrierWait, kM + 8);
  step(2, OpKind::BarrierWait, kM + 8);
  step(2, OpKind::BarrierPass, kM + 8);
  EXPECT_FALSE(read(2, kX + 8));
  // The last to arrive passes without a BarrierPass step.
  EXPECT_FALSE(write(2, kX + 40));
  step(2, OpKind::BarrierWait, kM + 40);
  step(1, OpKind::BarrierWait, kM + 40);
  EXPECT_FALSE(read(1, kX + 40));
  EXPECT_FALSE(write(1, kX + 16));
  step(1, OpKind::OnceDone, kM + 16);
  step(2, OpKind::OnceEnter, kM + 16);
  EXPECT_FALSE(read(2, kX + 16));
  EXPECT_FALSE(write(1, kX + 24));
  step(1, OpKind::FutexWake, kM + 24);
  step(2, OpKind::FutexWoken, kM + 24);
  EXPECT_FALSE(read(2, kX + 24));
  // A timed-out semaphore wait is not ordered after anything.
  EXPECT_FALSE(write(1, kX + 32));
  step(1, OpKind::SemPost, kM + 32);
  step(2, OpKind::SemWait, kM + 32, 0, kTimedOut);
  EXPECT_TRUE(read(2, kX + 32));
}

TEST_F(Races, ReleaseAcquireAtomicsOrderButRelaxedOnesDoNot) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1, kX));
  atomic(1, OpKind::AtomicStore, kRelease);
  atomic(2, OpKind::AtomicLoad, kAcquire);
  EXPECT_FALSE(read(2, kX));

  EXPECT_FALSE(write(1, kX + 8));
  atomic(1, OpKind::AtomicStore, 0, kFlag + 8);  // relaxed: a flag for plain data
  atomic(2, OpKind::AtomicLoad, kAcquire, kFlag + 8);
  EXPECT_TRUE(read(2, kX + 8));

  EXPECT_FALSE(write(1, kX + 16));
  atomic(1, OpKind::AtomicStore, kRelease, kFlag + 16);
  atomic(2, OpKind::AtomicLoad, 0, kFlag + 16);  // a release without a matching acquire
  EXPECT_TRUE(read(2, kX + 16));
}

TEST_F(Races, FencesMakeRelaxedAtomicsSynchronise) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1));
  atomic(1, OpKind::Fence, kRelease);
  atomic(1, OpKind::AtomicStore, 0);
  atomic(2, OpKind::AtomicLoad, 0);
  atomic(2, OpKind::Fence, kAcquire);
  EXPECT_FALSE(read(2));
}

TEST_F(Races, ARelaxedStoreEndsTheReleaseSequence) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(write(1));
  atomic(1, OpKind::AtomicStore, kRelease);
  atomic(0, OpKind::AtomicStore, 0);  // another thread's relaxed store
  atomic(2, OpKind::AtomicLoad, kAcquire);
  EXPECT_TRUE(read(2));
  // A read-modify-write continues it.
  EXPECT_FALSE(write(1, kX + 8));
  atomic(1, OpKind::AtomicStore, kRelease, kFlag + 8);
  atomic(0, OpKind::AtomicRmw, 0, kFlag + 8);
  atomic(2, OpKind::AtomicLoad, kAcquire, kFlag + 8);
  EXPECT_FALSE(read(2, kX + 8));
}

TEST_F(Races, AtomicsRaceWithPlainAccessesButNotWithEachOther) {
  create(0, 1);
  create(0, 2);
  EXPECT_FALSE(atomic(1, OpKind::AtomicStore, 0));
  EXPECT_FALSE(atomic(2, OpKind::AtomicRmw, 0));
  EXPECT_FALSE(atomic(0, OpKind::AtomicLoad, 0));
  EXPECT_TRUE(write(2, kFlag));  // a plain store to an atomic others use
  EXPECT_TRUE(race_.earlier.write);
  EXPECT_EQ(race_.later.thread, 2u);
  // ...and the other way round.
  EXPECT_FALSE(read(1, kFlag + 8));
  EXPECT_TRUE(atomic(2, OpKind::AtomicStore, kRelease, kFlag + 8));
  EXPECT_EQ(race_.earlier.thread, 1u);
  EXPECT_FALSE(race_.earlier.write);
}

TEST_F(Races, NeighbouringBytesOfOneWordDoNotRace) {
  create(0, 1);
  EXPECT_FALSE(write(0, kX, 1));
  EXPECT_FALSE(write(1, kX + 1, 1));
  EXPECT_FALSE(write(1, kX + 2, 2));
  EXPECT_TRUE(write(1, kX, 8));  // but the whole word overlaps the first byte
}

TEST_F(Races, AnAccessAcrossWordsIsCheckedInEach) {
  create(0, 1);
  EXPECT_FALSE(write(0, kX + 12, 1));
  EXPECT_TRUE(read(1, kX + 4, 16));
  EXPECT_EQ(race_.address, kX + 4);
  EXPECT_EQ(race_.later.size, 16u);
}

TEST_F(Races, ForgottenMemoryHasNoHistory) {
  create(0, 1);
  EXPECT_FALSE(write(0, kX, 8));
  d_.forget(kX, 64);
  EXPECT_FALSE(write(1, kX, 8));
  // A block bigger than the words used, and than a block of the shadow.
  EXPECT_FALSE(write(0, kX + 4096, 8));
  d_.forget(kX, 1 << 20);
  EXPECT_FALSE(write(1, kX + 4096, 8));
}

// A block freed with `mark` (held in a quarantine) leaves a freed marker in each of its
// words: any access there afterwards, by any thread, ordered or not, meets it; a second
// free too. Forgetting the block (it goes back to the allocator) clears the marks.
TEST_F(Races, AMarkedFreeIsMetByEveryLaterAccessUntilForgotten) {
  create(0, 1);
  EXPECT_FALSE(write(0, kX, 8));
  EXPECT_FALSE(d_.freed(0, kX, 48, 0x700000, &race_, /*mark=*/true));
  EXPECT_TRUE(d_.is_freed(kX));
  EXPECT_TRUE(d_.is_freed(kX + 40));
  EXPECT_FALSE(d_.is_freed(kX + 48));
  EXPECT_TRUE(read(0, kX + 44, 2));  // the freeing thread itself
  EXPECT_EQ(race_.earlier.thread, RaceDetector::kFreedThread);
  EXPECT_EQ(race_.earlier.pc, 0x700000u);
  EXPECT_EQ(race_.address, kX + 44);
  race_ = DataRace{};
  EXPECT_TRUE(atomic(1, OpKind::AtomicLoad, 0, kX + 8));
  EXPECT_EQ(race_.earlier.thread, RaceDetector::kFreedThread);
  race_ = DataRace{};
  EXPECT_TRUE(d_.freed(1, kX, 48, 0x700010, &race_, true));
  EXPECT_EQ(race_.earlier.thread, RaceDetector::kFreedThread);
  // Next to the block, nothing.
  EXPECT_FALSE(write(1, kX + 48, 8));
  d_.forget(kX, 48);
  EXPECT_FALSE(d_.is_freed(kX));
  EXPECT_FALSE(write(1, kX, 8));
  // Unmarked, a free only forgets.
  EXPECT_FALSE(d_.freed(1, kX, 48, 0x700000, &race_));
  EXPECT_FALSE(d_.is_freed(kX));
  EXPECT_FALSE(write(0, kX, 8));
}

TEST_F(Races, ABigBlockForgottenAmongManyWordsKeepsTheRest) {
  create(0, 1);
  for (std::uintptr_t i = 0; i < 20000; ++i) ASSERT_FALSE(write(0, kX + 8 * i, 8));
  d_.forget(kX, 8 * 10000);  // the first half, as a block bigger than the words used
  EXPECT_FALSE(write(1, kX, 8));
  EXPECT_FALSE(write(1, kX + 8 * 9999, 8));
  EXPECT_TRUE(write(1, kX + 8 * 10000, 8));
  // Reset after many words: nothing remembered, in the words used before or after.
  d_.reset();
  create(0, 1);
  EXPECT_FALSE(write(1, kX + 8 * 15000, 8));
  EXPECT_TRUE(write(0, kX + 8 * 15000, 8));
}

TEST_F(Races, ResetForgetsEverything) {
  create(0, 1);
  EXPECT_FALSE(write(1));
  d_.reset();
  create(0, 1);
  EXPECT_FALSE(write(0));
  EXPECT_TRUE(write(1));
}

TEST_F(Races, ARangeAcrossShadowBlocksIsForgottenExactly) {
  // 64 KiB blocks: the range starts and ends inside blocks and covers two whole ones.
  constexpr std::uintptr_t kBase = 0x7f0000000000, kFrom = kBase + 0x8004;
  constexpr std::uintptr_t kTo = kFrom + 3 * 0x10000;
  create(0, 1);
  for (std::uintptr_t a = kBase; a < kTo + 0x10000; a += 0x1000) ASSERT_FALSE(write(0, a, 8));
  ASSERT_FALSE(write(0, kFrom - 12, 8));  // the word before the range's
  d_.forget(kFrom, kTo - kFrom);
  EXPECT_TRUE(write(1, kFrom - 12, 8));  // before the range: remembered
  for (std::uintptr_t a = (kFrom + 0xfff) & ~std::uintptr_t{0xfff}; a < kTo; a += 0x1000)
    EXPECT_FALSE(write(1, a, 8)) << std::hex << a;
  EXPECT_TRUE(write(1, (kTo + 0xfff) & ~std::uintptr_t{0xfff}, 8));  // after: remembered
}

TEST_F(Races, AForgottenBlockIsEmptiedLazilyAndWorksAgain) {
  // Two whole 64 KiB blocks freed (emptied page by page when next used), reused by
  // another thread, freed again, and a reset in between.
  constexpr std::uintptr_t kBase = 0x500000000, kBytes = 2 * 0x10000;
  create(0, 1);
  for (int round = 0; round < 3; ++round) {
    for (std::uintptr_t a = kBase; a < kBase + kBytes; a += 64) ASSERT_FALSE(write(0, a, 8));
    d_.forget(kBase, kBytes);
    for (std::uintptr_t a = kBase; a < kBase + kBytes; a += 64)
      ASSERT_FALSE(write(1, a, 8)) << round << " " << std::hex << a;
    // What thread 1 wrote after the free is remembered.
    EXPECT_TRUE(write(0, kBase + 64, 8));
    EXPECT_TRUE(read(0, kBase + kBytes - 64, 8));
    EXPECT_FALSE(write(0, kBase + 8, 8));  // a word nobody used since the free
    d_.forget(kBase, kBytes);
    if (round == 1) {
      d_.reset();
      create(0, 1);
    }
  }
}

TEST_F(Races, WordsAllOverTheAddressSpaceAreTracked) {
  create(0, 1);
  const std::uintptr_t addresses[] = {0x1000, 0x40000000, 0x555555554000, 0x7ffff7fd0000,
                                      0x7fffffffeff8};
  for (std::uintptr_t a : addresses) ASSERT_FALSE(write(0, a, 8));
  for (std::uintptr_t a : addresses) EXPECT_TRUE(read(1, a, 8)) << std::hex << a;
  // Not a user-space address: no history, and no crash.
  EXPECT_FALSE(write(0, std::uintptr_t{1} << 50, 8));
  EXPECT_FALSE(write(1, std::uintptr_t{1} << 50, 8));
}

TEST_F(Races, BeyondTheShadowsBlocksWordsAreUntrackedNeverFalselyRacing) {
  create(0, 1);
  // A word in each of 10,000 blocks of 64 KiB: more blocks than the shadow has.
  constexpr std::uintptr_t kBase = 0x100000000;
  for (std::uintptr_t i = 0; i < 10000; ++i) ASSERT_FALSE(write(0, kBase + (i << 16), 8));
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::MutexLock, kM);
  int races = 0;
  for (std::uintptr_t i = 0; i < 10000; ++i) races += read(1, kBase + (i << 16), 8);
  EXPECT_EQ(races, 0);
  // The first blocks are tracked: a write of thread 0 now races with thread 1's read.
  EXPECT_TRUE(write(0, kBase, 8));
  d_.reset();  // and the reset of so many forgets them all
  create(0, 1);
  EXPECT_FALSE(write(1, kBase, 8));
}

TEST_F(Races, ADenseFootprintOfManyBlocksIsAllTracked) {
  // 4 MiB written densely: after the first blocks, the shadow's huge-page half.
  constexpr std::uintptr_t kBase = 0x600000000, kBytes = 4 << 20;
  create(0, 1);
  for (std::uintptr_t a = kBase; a < kBase + kBytes; a += 8) ASSERT_FALSE(write(0, a, 8));
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::MutexLock, kM);
  for (std::uintptr_t a = kBase; a < kBase + kBytes; a += 8) ASSERT_FALSE(read(1, a, 8));
  EXPECT_TRUE(write(0, kBase + kBytes - 8, 8));
  EXPECT_TRUE(write(0, kBase + kBytes / 2, 4));
  d_.forget(kBase, kBytes);
  EXPECT_FALSE(write(1, kBase + kBytes - 8, 8));
}

TEST_F(Races, ManyWordsAreAllTracked) {
  create(0, 1);
  for (std::uintptr_t i = 0; i < 20000; ++i) ASSERT_FALSE(write(0, kX + 8 * i, 8));
  step(0, OpKind::MutexUnlock, kM);
  step(1, OpKind::MutexLock, kM);
  for (std::uintptr_t i = 0; i < 20000; ++i) ASSERT_FALSE(read(1, kX + 8 * i, 8)) << i;
  EXPECT_TRUE(write(0, kX + 8 * 19999, 8));
}

}  // namespace
}  // namespace weft::detect
