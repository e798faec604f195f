// A std::once_flag in a heap object, used, freed, and a new object made in the same memory:
// its call_once must run again (weft once kept "done" by address, so the second object's
// initialiser never ran: a false failure, or a false deadlock in std::async's deferred
// state, which calls call_once inside). The same for memory that is never freed (a stack
// slot a block reuses): a new once flag there, and a std::recursive_mutex where a
// std::mutex was (weft kept the first one's type: a false deadlock on the second lock).
#include <cstdlib>
#include <future>
#include <mutex>
#include <new>
#include <thread>

struct Lazy {
  std::once_flag flag;
  int value = 0;
};

int main() {
  int runs = 0;
  for (int i = 0; i < 2; ++i) {
    auto* lazy = new Lazy;
    auto init = [&] { std::call_once(lazy->flag, [&] { lazy->value = 1; ++runs; }); };
    std::thread t(init);
    init();
    t.join();
    if (lazy->value != 1) std::abort();
    delete lazy;
  }
  alignas(64) unsigned char slot[64];
  for (int i = 0; i < 2; ++i) {
    auto* flag = new (slot) std::once_flag;
    auto init = [&] { std::call_once(*flag, [&] { ++runs; }); };
    std::thread t(init);
    init();
    t.join();
    flag->~once_flag();
  }
  {
    auto* plain = new (slot) std::mutex;
    std::thread t([&] { std::lock_guard<std::mutex> g(*plain); });
    { std::lock_guard<std::mutex> g(*plain); }
    t.join();
    plain->~mutex();
    auto* recursive = new (slot) std::recursive_mutex;
    auto twice = [&] {
      std::lock_guard<std::recursive_mutex> a(*recursive);
      std::lock_guard<std::recursive_mutex> b(*recursive);
    };
    std::thread u(twice);
    twice();
    u.join();
    recursive->~recursive_mutex();
  }
  // A packaged task's state, then a deferred async's in the same memory.
  std::packaged_task<int()> task([] { return 41; });
  std::future<int> first = task.get_future();
  std::thread t(std::move(task));
  const int a = first.get();
  t.join();
  const int b = std::async(std::launch::deferred, [] { return 1; }).get();
  return runs == 4 && a + b == 42 ? 0 : 1;
}
