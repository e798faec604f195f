// A two-stage pipeline: the parser turns input lines into numbers and hands them to the
// summer through a channel, then closes it. The done flag is atomic, so close() sets it
// without taking the channel's lock: when the summer has just found the channel empty and
// open and is about to wait, the flag and the notification both land before it sleeps.
// The wakeup is lost and the summer waits forever.
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
    closed_.store(true);  // "atomic, so no lock needed"
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
