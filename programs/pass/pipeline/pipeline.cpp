// A two-stage pipeline: the parser turns input lines into numbers and hands them to the
// summer through a channel, then closes it. close() sets the done flag under the channel's
// lock, so the summer is either before its check (and sees the flag) or already waiting
// (and gets the notification).
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>

class Channel {
 public:
  void send(long value) {
    std::lock_guard<std::mutex> guard(mutex_);
    items_.push_back(value);
    ready_.notify_one();
  }
  void close() {
    std::lock_guard<std::mutex> guard(mutex_);
    closed_.store(true);
    ready_.notify_one();
  }
  // Waits for a value; false when the channel is closed and empty.
  bool receive(long* value) {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [this] { return closed_.load() || !items_.empty(); });
    if (items_.empty()) return false;
    *value = items_.front();
    items_.pop_front();
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<long> items_;
  std::atomic<bool> closed_{false};
};

int main() {
  static const char* const kLines[] = {"12", "30", "7"};
  Channel channel;
  long total = 0;

  std::thread parser([&] {
    for (const char* line : kLines) channel.send(std::strtol(line, nullptr, 10));
    channel.close();
  });
  std::thread summer([&] {
    long value;
    while (channel.receive(&value)) total += value;
  });
  parser.join();
  summer.join();

  std::printf("total %ld\n", total);
  return total == 49 ? 0 : 1;
}
