// A run's distinct bugs and reported races (explore/bug_table.hpp).
#include "explore/bug_table.hpp"

#include <gtest/gtest.h>

namespace weft::explorer {
namespace {

BugRecord bug(BugKind kind, const std::string& message) {
  BugRecord b;
  b.kind = kind;
  b.message = message;
  return b;
}

TEST(BugTable, ABugSeenAgainIsAHitOfTheFirst) {
  RunRecord run;
  BugTable table(&run);
  EXPECT_EQ(table.find("assertion at a.c:3"), BugTable::kNew);
  table.add(bug(BugKind::kAssertion, "first"), "assertion at a.c:3");
  table.add(bug(BugKind::kDeadlock, "second"), "deadlock at a.c:9");
  ASSERT_EQ(table.find("assertion at a.c:3"), 0u);
  EXPECT_EQ(table.find("deadlock at a.c:9"), 1u);
  table.hit(0);
  table.hit(0);
  ASSERT_EQ(run.bugs.size(), 2u);
  EXPECT_EQ(run.bugs[0].message, "first");
  EXPECT_EQ(run.bugs[0].hits, bug(BugKind::kAssertion, "").hits + 2);
  EXPECT_EQ(table.key(1), "deadlock at a.c:9");
}

TEST(BugTable, ARaceIsReportedOncePerPairOfLines) {
  RunRecord run;
  BugTable table(&run);
  EXPECT_FALSE(table.race_reported("a.c:3|a.c:7"));
  table.add_race(bug(BugKind::kDataRace, "race"), "a.c:3|a.c:7");
  EXPECT_TRUE(table.race_reported("a.c:3|a.c:7"));
  EXPECT_FALSE(table.race_reported("a.c:3|a.c:8"));
  EXPECT_EQ(run.races.size(), 1u);
  EXPECT_TRUE(run.bugs.empty());
}

}  // namespace
}  // namespace weft::explorer
