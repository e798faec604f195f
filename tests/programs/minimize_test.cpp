// weft::explore reports its first bug with the simplest schedule it finds (Options::minimize,
// in_process_minimizer.hpp): a random walk's find carries many needless preemptions, the
// report the fewest the bug needs, and the minimised schedule replays it.
#include <gtest/gtest.h>
#include <weft/weft.hpp>

#include <mutex>
#include <string>
#include <thread>

namespace {

// Two transfers each check the balance, then take the money, under the account's lock
// each time but not as one step: both pass the check with one preemption between them.
struct Account {
  std::mutex lock;
  int balance = 0;
  int read() {
    std::lock_guard<std::mutex> g(lock);
    return balance;
  }
  void add(int amount) {
    std::lock_guard<std::mutex> g(lock);
    balance += amount;
  }
};

void transfer(Account& from, Account& to, int amount) {
  if (from.read() < amount) return;
  from.add(-amount);
  to.add(amount);
}

void bank() {
  Account checking, savings, rent;
  checking.balance = 100;
  std::thread a([&] { transfer(checking, savings, 80); });
  std::thread b([&] { transfer(checking, rent, 50); });
  a.join();
  b.join();
  WEFT_ASSERT(checking.balance >= 0);
}

weft::Options sampled(bool minimize) {
  return {.strategy = "random", .executions = 10000, .seed = 1, .name = "bank", .minimize = minimize};
}

TEST(Minimize, TheFirstBugIsReportedWithTheFewestPreemptions) {
  const weft::Result raw = weft::explore(bank, sampled(false));
  ASSERT_TRUE(raw.failed()) << raw.report();
  EXPECT_GT(raw.bugs()[0].preemptions(), 2u) << "the random walk's own find, as it was";
  EXPECT_EQ(raw.report().find("minimised:"), std::string::npos);

  const weft::Result r = weft::explore(bank, sampled(true));
  ASSERT_TRUE(r.failed()) << r.report();
  const weft::Bug& bug = r.bugs()[0];
  EXPECT_EQ(bug.message(), raw.bugs()[0].message());
  EXPECT_EQ(bug.preemptions(), 1u) << r.report();
  EXPECT_EQ(bug.execution(), raw.bugs()[0].execution()) << "found where it was found";
  EXPECT_NE(r.report().find("minimised: found with " + std::to_string(raw.bugs()[0].preemptions()) +
                            " preemptions"),
            std::string::npos)
      << r.report();
  const weft::Result again = weft::replay(bank, bug.schedule(), sampled(true));
  ASSERT_TRUE(again.failed()) << again.report();
  EXPECT_EQ(again.bugs()[0].message(), bug.message());
  EXPECT_EQ(again.bugs()[0].preemptions(), 1u);
}

// A bug whose schedule has no preemption is reported as found: nothing is tried.
TEST(Minimize, ABugWithoutPreemptionsIsLeftAsFound) {
  const weft::Result r = weft::explore(
      [] {
        int x = 0;
        std::thread t([&] { x = 1; });
        t.join();
        WEFT_ASSERT(x == 0);
      },
      {.strategy = "dfs", .executions = 0, .name = "no-preemption"});
  ASSERT_TRUE(r.failed());
  EXPECT_EQ(r.bugs()[0].preemptions(), 0u);
  EXPECT_EQ(r.report().find("minimised:"), std::string::npos) << r.report();
}

}  // namespace
