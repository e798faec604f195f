// A std::once_flag in a heap object, used, freed, and a new object made in the same memory:
// its call_once must run again (weft once kept "done" by address, so the second object's
// initialiser never ran: a false failure, or a false deadlock in std::async's deferred
// state, which calls call_once inside).
#include <cstdlib>
#include <future>
#include <mutex>
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
  // A packaged task's state, then a deferred async's in the same memory.
  std::packaged_task<int()> task([] { return 41; });
  std::future<int> first = task.get_future();
  std::thread t(std::move(task));
  const int a = first.get();
  t.join();
  const int b = std::async(std::launch::deferred, [] { return 1; }).get();
  return runs == 2 && a + b == 42 ? 0 : 1;
}
