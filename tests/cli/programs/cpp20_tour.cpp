// A correct program that uses the C++20 synchronisation library (latch, barrier,
// counting_semaphore, atomic wait/notify, shared_mutex, jthread with stop_token and
// condition_variable_any, promise/future/async, call_once, recursive and timed mutexes,
// thread_local): never to be reported. Block after block reuses the same stack slots.
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <future>
#include <latch>
#include <mutex>
#include <semaphore>
#include <shared_mutex>
#include <stop_token>
#include <thread>
#include <vector>
#include <condition_variable>

// Not assert: the build may define NDEBUG.
#define check(c) \
  do {                \
    if (!(c)) abort(); \
  } while (0)

int main() {
  // latch + barrier
  {
    std::latch ready(2);
    std::barrier sync(2);
    int a = 0, b = 0;
    std::thread t1([&] { a = 1; ready.count_down(); sync.arrive_and_wait(); check(b == 2); });
    std::thread t2([&] { b = 2; ready.count_down(); sync.arrive_and_wait(); check(a == 1); });
    ready.wait();
    t1.join(); t2.join();
  }
  // counting_semaphore as a bounded buffer
  {
    std::counting_semaphore<2> slots(2), items(0);
    std::mutex m; std::vector<int> q;
    std::thread prod([&] { for (int i = 0; i < 3; ++i) { slots.acquire(); { std::lock_guard g(m); q.push_back(i);} items.release(); } });
    int sum = 0;
    for (int i = 0; i < 3; ++i) { items.acquire(); { std::lock_guard g(m); sum += q.front(); q.erase(q.begin()); } slots.release(); }
    prod.join();
    check(sum == 3);
  }
  // atomic wait/notify
  {
    std::atomic<int> flag{0};
    std::thread t([&] { flag.store(1); flag.notify_one(); });
    flag.wait(0);
    check(flag.load() == 1);
    t.join();
  }
  // shared_mutex
  {
    std::shared_mutex sm; int v = 0;
    std::thread w([&] { std::unique_lock l(sm); v = 5; });
    std::thread r([&] { std::shared_lock l(sm); int x = v; check(x == 0 || x == 5); });
    w.join(); r.join();
  }
  // jthread + stop_token + condition_variable_any
  {
    std::mutex m; std::condition_variable_any cv; bool stopped = false;
    std::jthread t([&](std::stop_token st) {
      std::unique_lock l(m);
      cv.wait(l, st, [] { return false; });
      stopped = true;
    });
    t.request_stop();
    t.join();
    check(stopped);
  }
  // future / promise / async
  {
    std::promise<int> p; auto f = p.get_future();
    std::thread t([&] { p.set_value(42); });
    check(f.get() == 42);
    t.join();
    auto g = std::async(std::launch::async, [] { return 7; });
    check(g.get() == 7);
  }
  // call_once + thread_local dtors + recursive/timed mutex
  {
    std::once_flag once; int inits = 0;
    std::recursive_mutex rm; std::timed_mutex tm;
    auto body = [&] {
      std::call_once(once, [&] { ++inits; });
      std::lock_guard a(rm); std::lock_guard b(rm);
      if (tm.try_lock_for(std::chrono::milliseconds(10))) tm.unlock();
      thread_local std::vector<int> tl(3, 1);
      check(tl.size() == 3);
    };
    std::thread t1(body), t2(body); t1.join(); t2.join();
    check(inits == 1);
  }
  return 0;
}
