// A bounded, locked stack of tasks shared by two workers. Each method locks, but a worker
// checks empty() and then calls pop() as two separate steps: the other worker can take
// the last task in between, and pop() runs on an empty stack.
#include <cassert>
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <thread>

template <typename T, std::size_t Capacity>
class BoundedStack {
 public:
  bool push(const T& item) {
    std::lock_guard<std::mutex> guard(mutex_);
    if (size_ == Capacity) return false;
    items_[size_++] = item;
    return true;
  }
  bool empty() {
    std::lock_guard<std::mutex> guard(mutex_);
    return size_ == 0;
  }
  T pop() {
    std::lock_guard<std::mutex> guard(mutex_);
    assert(size_ > 0 && "pop on an empty stack");
    return items_[--size_];
  }

 private:
  std::mutex mutex_;
  T items_[Capacity];
  std::size_t size_ = 0;
};

int main() {
  BoundedStack<int, 8> tasks;
  tasks.push(17);
  tasks.push(23);
  tasks.push(42);

  std::mutex done_mutex;
  int done = 0;
  auto worker = [&] {
    while (!tasks.empty()) {
      const int task = tasks.pop();
      std::lock_guard<std::mutex> guard(done_mutex);
      std::printf("task %d\n", task);
      ++done;
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  return done == 3 ? 0 : 1;
}
