// A test built without weft's instrumentation (no -fsanitize=thread): memory accesses are
// invisible, but every synchronisation call is still a scheduling point, and the report
// says that only synchronisation was scheduled.
#include <gtest/gtest.h>
#include <pthread.h>
#include <weft/weft.hpp>

#include <mutex>
#include <thread>

namespace {

TEST(SyncOnly, LockOrderDeadlockIsStillFound) {
  auto body = [] {
    std::mutex a, b;
    std::thread t1([&] {
      std::lock_guard<std::mutex> x(a);
      std::lock_guard<std::mutex> y(b);
    });
    std::thread t2([&] {
      std::lock_guard<std::mutex> y(b);
      std::lock_guard<std::mutex> x(a);
    });
    t1.join();
    t2.join();
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.bugs()[0].kind(), weft::BugKind::kDeadlock);
  EXPECT_FALSE(r.instrumented());
  EXPECT_NE(r.report().find("only synchronisation"), std::string::npos) << r.report();
  weft::Result again = weft::replay(body, r.bugs()[0].schedule());
  EXPECT_TRUE(again.failed()) << again.report();
}

TEST(SyncOnly, CorrectLockingCompletes) {
  auto body = [] {
    std::mutex m;
    int counter = 0;
    auto inc = [&] {
      std::lock_guard<std::mutex> g(m);
      ++counter;
    };
    std::thread t1(inc), t2(inc);
    t1.join();
    t2.join();
    WEFT_ASSERT(counter == 2);
  };
  weft::Result r = weft::explore(body, {.strategy = "dfs", .executions = 0});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_TRUE(r.complete());
  EXPECT_FALSE(r.instrumented());
}

}  // namespace
