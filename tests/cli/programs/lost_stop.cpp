// A lost wakeup in a destructor: the worker checks `stop_` outside the lock, the
// destructor sets it and broadcasts in between, and the worker then waits for ever.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

class Worker {
 public:
  Worker() : thread_([this] { run(); }) {}
  ~Worker() {
    for (int i = 0; i < 20; ++i) tidied_.fetch_add(1, std::memory_order_relaxed);
    stop_.store(true);
    wake_.notify_all();
    for (int i = 0; i < 20; ++i) tidied_.fetch_add(1, std::memory_order_relaxed);
    thread_.join();
  }

 private:
  void run() {
    while (!stop_.load()) {  // the bug: checked without the lock, so a broadcast is lost
      std::unique_lock<std::mutex> lock(m_);
      wake_.wait(lock);
    }
  }
  std::mutex m_;
  std::condition_variable wake_;
  std::atomic<bool> stop_{false};
  std::atomic<int> tidied_{0};
  std::thread thread_;
};

int main() {
  Worker w;
  return 0;
}
