// A producer hands events to a consumer through a mutex-protected queue and a condition
// variable, then sets an atomic "finished" flag and notifies. The flag is set under the
// mutex, so it cannot change between the consumer's check of the predicate and its going
// to sleep.
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <queue>
#include <thread>

int main() {
  std::mutex mutex;
  std::condition_variable changed;
  std::queue<int> events;
  std::atomic<bool> finished{false};
  int handled = 0;

  std::thread consumer([&] {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return !events.empty() || finished.load(); });
      if (events.empty()) break;  // finished, and nothing left
      const int event = events.front();
      events.pop();
      lock.unlock();
      std::printf("event %d\n", event);
      ++handled;
      lock.lock();
    }
  });
  std::thread producer([&] {
    for (int event = 1; event <= 2; ++event) {
      {
        std::lock_guard<std::mutex> guard(mutex);
        events.push(event);
      }
      changed.notify_one();
    }
    {
      std::lock_guard<std::mutex> guard(mutex);
      finished.store(true);
    }
    changed.notify_one();
  });
  producer.join();
  consumer.join();
  std::printf("%d events handled\n", handled);
  return handled == 2 ? 0 : 1;
}
