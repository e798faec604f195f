// A thread pool of std::packaged_task and std::future, explored in-process by dpor: every
// execution starts alike, whatever the earlier ones left in memory. libstdc++'s future
// states are heap objects with a vtable; one allocated where an earlier execution's state
// lay found its vtable pointer already there, and the constructor's update of it, once
// not a step when it changed nothing, vanished from the schedule: dpor replaying a branch
// then met other threads than it found it with ("not reproducible: execution 3, decision
// 494", no coverage claim). A whole program, forked per execution, never did.
#include <gtest/gtest.h>
#include <weft/weft.hpp>

#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <queue>
#include <string>
#include <thread>
#include <vector>

namespace {

class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) workers_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (std::thread& w : workers_) w.join();
  }
  template <class F>
  auto submit(F f) -> std::future<decltype(f())> {
    auto task = std::make_shared<std::packaged_task<decltype(f())()>>(std::move(f));
    auto result = task->get_future();
    {
      std::lock_guard<std::mutex> l(m_);
      jobs_.push([task] { (*task)(); });
    }
    cv_.notify_one();
    return result;
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> l(m_);
        cv_.wait(l, [this] { return stop_ || !jobs_.empty(); });
        if (stop_ && jobs_.empty()) return;
        job = std::move(jobs_.front());
        jobs_.pop();
      }
      job();
    }
  }
  std::mutex m_;
  std::condition_variable cv_;
  std::queue<std::function<void()>> jobs_;
  bool stop_ = false;
  std::vector<std::thread> workers_;
};

// Two tasks wait for a shared go signal, then main collects their results.
void shared_go() {
  Pool pool(2);
  std::promise<void> go;
  std::shared_future<void> ready = go.get_future().share();
  auto a = pool.submit([ready] { ready.wait(); return 1; });
  auto b = pool.submit([ready] { ready.wait(); return 2; });
  go.set_value();
  WEFT_ASSERT(a.get() + b.get() == 3);
}

TEST(Futures, DporOnAFuturePoolIsReproducible) {
  const weft::Result r = weft::explore(shared_go, {.strategy = "dpor", .executions = 300, .name = "shared-go"});
  EXPECT_TRUE(r.ok()) << r.report();
  EXPECT_EQ(r.coverage().find("not reproducible"), std::string::npos) << r.coverage();
  EXPECT_EQ(r.executions(), 300u) << r.coverage();
  // The same search again, in the same process: the same executions and classes.
  const weft::Result again = weft::explore(shared_go, {.strategy = "dpor", .executions = 300, .name = "shared-go"});
  EXPECT_EQ(again.coverage(), r.coverage());
}

// Virtual objects built again and again in one buffer: each execution constructs its
// object where the last one's vtable pointer still lies. dfs counts one schedule per
// order of the three steps that matter, in every execution alike.
struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const { return 0; }
};
struct Square : Shape {
  int sides() const override { return 4; }
};
int g_side;

TEST(Futures, AVtablePointerUpdateIsAStepWhateverTheMemoryHeld) {
  auto body = [] {
    g_side = 0;
    std::thread t([] { g_side = 4; });
    alignas(Square) static unsigned char buffer[sizeof(Square)];
    Shape* s = new (buffer) Square;
    const int seen = g_side;
    WEFT_ASSERT(seen == 0 || seen == s->sides());
    s->~Shape();
    t.join();
  };
  const weft::Result first = weft::explore(body, {.strategy = "dfs", .executions = 0, .name = "vptr"});
  const weft::Result second = weft::explore(body, {.strategy = "dfs", .executions = 0, .name = "vptr"});
  EXPECT_TRUE(first.ok()) << first.report();
  EXPECT_TRUE(first.complete()) << first.coverage();
  EXPECT_EQ(second.coverage(), first.coverage());
}

}  // namespace
