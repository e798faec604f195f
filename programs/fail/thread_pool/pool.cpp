// A thread pool (a task queue, two workers, condition variables) whose wait_idle() returns
// once the queue is empty, forgetting the tasks still running; a detached logger thread
// that waits for lines for ever, and a heartbeat thread that sleeps in a loop until told
// to stop. The caller can see the sum before the last task has added to it.
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
    }
    ready_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  void submit(std::function<void()> task) {
    {
      std::lock_guard<std::mutex> l(m_);
      queue_.push_back(std::move(task));
    }
    ready_.notify_one();
  }
  void wait_idle() {
    std::unique_lock<std::mutex> l(m_);
    idle_.wait(l, [this] { return queue_.empty(); });  // the bug: running_ not checked
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> l(m_);
        ready_.wait(l, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping
        task = std::move(queue_.front());
        queue_.pop_front();
        ++running_;
      }
      task();
      std::lock_guard<std::mutex> l(m_);
      if (--running_ == 0 && queue_.empty()) idle_.notify_all();
    }
  }

  std::mutex m_;
  std::condition_variable ready_, idle_;
  std::deque<std::function<void()>> queue_;
  int running_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

// The detached logger waits through the program's exit, so its objects are never
// destroyed: a condition variable destroyed while a thread waits on it is undefined
// (glibc's pthread_cond_destroy then blocks for ever in exit).
std::mutex& log_mutex = *new std::mutex;
std::condition_variable& log_ready = *new std::condition_variable;
std::deque<int>& log_lines = *new std::deque<int>;

int main() {
  std::thread([] {
    for (;;) {
      std::unique_lock<std::mutex> l(log_mutex);
      log_ready.wait(l, [] { return !log_lines.empty(); });
      log_lines.pop_front();
    }
  }).detach();
  std::atomic<bool> running{true};
  std::thread heartbeat([&] {
    while (running) std::this_thread::sleep_for(std::chrono::seconds(1));
  });
  std::atomic<int> sum{0};
  {
    Pool pool(2);
    for (int i = 1; i <= 4; ++i)
      pool.submit([&sum, i] {
        sum += i;
        {
          std::lock_guard<std::mutex> l(log_mutex);
          log_lines.push_back(i);
        }
        log_ready.notify_one();
      });
    pool.wait_idle();
    assert(sum == 10);
  }
  running = false;
  heartbeat.join();
  return 0;
}
