// The ICB paper's work-stealing queue (work_stealing_queue.hpp): iterative preemption
// bounding finds each of its three bugs within two preemptions, and the correct queue
// completes bound 2 with no report.
#include <gtest/gtest.h>

#include "work_stealing_queue.hpp"

namespace {

using wsq::harness;
using wsq::Variant;

weft::Options pb(int bound) {
  weft::Options o;
  o.strategy = "pb:" + std::to_string(bound);
  o.executions = 0;  // until the bound completes
  return o;
}

template <Variant V>
void expect_found_within_two() {
  weft::Result r = weft::explore(harness<V>, pb(2));
  ASSERT_TRUE(r.error().empty()) << r.error();
  ASSERT_FALSE(r.ok()) << r.report();
  EXPECT_EQ(r.bugs()[0].kind(), weft::BugKind::kAssertion) << r.report();
  EXPECT_LE(r.bugs()[0].preemptions(), 2u) << r.report();
  std::cout << "found with " << r.bugs()[0].preemptions() << " preemption(s) in execution "
            << r.bugs()[0].execution() << "\n";
  EXPECT_TRUE(weft::replay(harness<V>, r.bugs()[0].schedule()).failed());
}

TEST(WorkStealingQueue, PopTakingTheLastTaskWithoutCasIsFound) {
  expect_found_within_two<Variant::kPopTakesLastWithoutCas>();
}
TEST(WorkStealingQueue, PopReadingTopTooEarlyIsFound) {
  expect_found_within_two<Variant::kPopReadsTopTooEarly>();
}
TEST(WorkStealingQueue, StealFromAnEmptyQueueIsFound) {
  expect_found_within_two<Variant::kStealFromEmpty>();
}

TEST(WorkStealingQueue, CorrectQueueCompletesBoundTwo) {
  weft::Result r = weft::explore(harness<Variant::kCorrect>, pb(2));
  ASSERT_TRUE(r.error().empty()) << r.error();
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete()) << r.report();
  std::cout << r.coverage() << "\n";
}

}  // namespace
