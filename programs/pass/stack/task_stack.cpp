// A bounded, locked stack of tasks shared by two workers. A worker takes a task with
// try_pop(), which checks for emptiness and pops under one lock.
#include <cstddef>
#include <cstdio>
#include <mutex>
#include <optional>
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
  std::optional<T> try_pop() {
    std::lock_guard<std::mutex> guard(mutex_);
    if (size_ == 0) return std::nullopt;
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
    while (std::optional<int> task = tasks.try_pop()) {
      std::lock_guard<std::mutex> guard(done_mutex);
      std::printf("task %d\n", *task);
      ++done;
    }
  };
  std::thread a(worker), b(worker);
  a.join();
  b.join();
  return done == 3 ? 0 : 1;
}
