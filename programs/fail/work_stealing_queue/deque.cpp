// A work-stealing deque after Chase and Lev, on a bounded circular array: the owner
// pushes and pops tasks at the bottom, thieves steal from the top with a CAS. When one
// task is left, the owner must race the thieves for it with the same CAS. pop() gets the
// boundary wrong by one (t <= b instead of t < b) and takes the last task without the
// CAS, so a thief can take it too: the task runs twice.
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdio>
#include <thread>

template <typename T, std::size_t N>
class WorkStealingDeque {
 public:
  // Owner only.
  bool push(T item) {
    const long b = bottom_.load(), t = top_.load();
    if (b - t >= static_cast<long>(N)) return false;  // full
    slots_[b % N].store(item);
    bottom_.store(b + 1);
    return true;
  }
  // Owner only.
  bool pop(T* item) {
    const long b = bottom_.load() - 1;
    bottom_.store(b);
    long t = top_.load();
    if (t > b) {  // empty
      bottom_.store(b + 1);
      return false;
    }
    *item = slots_[b % N].load();
    if (t <= b) return true;  // other tasks are left between us and the thieves
    // The last task: whoever moves top past it owns it.
    const bool won = top_.compare_exchange_strong(t, t + 1);
    bottom_.store(b + 1);
    return won;
  }
  // Any thread.
  bool steal(T* item) {
    long t = top_.load();
    const long b = bottom_.load();
    if (t >= b) return false;  // empty
    *item = slots_[t % N].load();
    return top_.compare_exchange_strong(t, t + 1);
  }

 private:
  std::atomic<T> slots_[N] = {};
  std::atomic<long> top_{0}, bottom_{0};
};

constexpr int kTasks = 3;
std::atomic<int> g_runs[kTasks];

void run_task(int id) { g_runs[id].fetch_add(1); }

int main() {
  WorkStealingDeque<int, 4> deque;
  for (int id = 0; id < kTasks; ++id) deque.push(id);

  std::thread thief([&] {
    for (int attempt = 0; attempt < 2; ++attempt) {
      int id;
      if (deque.steal(&id)) run_task(id);
    }
  });
  int id;
  while (deque.pop(&id)) run_task(id);
  thief.join();

  for (int i = 0; i < kTasks; ++i) {
    std::printf("task %d ran %d time(s)\n", i, g_runs[i].load());
    assert(g_runs[i].load() == 1 && "every task runs exactly once");
  }
  return 0;
}
