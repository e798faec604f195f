// ThreadSanitizer's annotation API under weft (issue #28): library-shaped programs that
// annotate their own synchronisation (programs/annotations.cpp), each next to a twin
// without the annotations.
#include <gtest/gtest.h>

#include <string>

#include "support/shell.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string kBin = WEFT_BIN_DIR;

using weft::test::Output;
using weft::test::sh;

class Annotations : public weft::test::TempDirTest {
 protected:
  Output run(const std::string& args, const std::string& which) {
    return sh("cd " + dir_.string() + " && " + kBin + "/weft run --jobs 1 " + args + " -- " + kBin +
              "/cli_annotations " + which);
  }
  // No bug, under complete searches that say so.
  void expect_clean(const std::string& which) {
    for (const std::string strategy : {"dfs", "dpor"}) {
      SCOPED_TRACE(which + " under " + strategy);
      const Output o = run("-n 5000 -s " + strategy, which);
      EXPECT_EQ(o.status, 0) << o.out;
      EXPECT_TRUE(o.has(", complete;")) << o.out;
    }
    const Output o = run("-n 300 -s random", which);
    EXPECT_EQ(o.status, 0) << which << " under random\n" << o.out;
  }
  void expect_bug(const std::string& which, const std::string& headline) {
    for (const std::string strategy : {"dfs", "dpor", "random"}) {
      SCOPED_TRACE(which + " under " + strategy);
      const Output o = run("-n 2000 -s " + strategy, which);
      EXPECT_EQ(o.status, 1) << o.out;
      EXPECT_TRUE(o.has(headline)) << o.out;
    }
  }
};

// A message passed through a relaxed flag: AnnotateHappensBefore/After (or
// __tsan_release/acquire) order the payload; without them it is a race.
TEST_F(Annotations, HappensBeforeEdgesOrderARelaxedQueue) {
  expect_clean("annotated_queue");
  expect_clean("tsan_release_acquire");
  // (the payload's size is the compiler's: clang stores 42 in one byte)
  expect_bug("unannotated_queue", "bug: data-race: read of");
}

TEST_F(Annotations, BenignAndIgnoredRacesAreNotReported) {
  expect_clean("benign_counter");
  expect_clean("ignored_peek");
}

// A spin mutex annotated with __tsan_mutex_* is a lock weft models: taken in opposite
// orders, a deadlock (not a livelock of two spinners); taken in one order, correct.
TEST_F(Annotations, AnAnnotatedMutexIsAModelledLock) {
  expect_bug("spin_deadlock", "bug: deadlock: cycle: T0 waits for T1");
  expect_clean("spin_counter");
}

// AnnotateRWLockAcquired/Released: readers and a writer of a relaxed-atomic rwlock.
TEST_F(Annotations, AnAnnotatedReadWriteLockOrdersItsUsers) {
  for (const std::string strategy : {"dfs", "dpor", "random"}) {
    const Output o = run("-n 1000 -s " + strategy, "rw_annotated");
    EXPECT_EQ(o.status, 0) << strategy << "\n" << o.out;
  }
}

}  // namespace
