// A program that logs from a background thread into a global logger. main waits for the
// background thread before it returns, so the logger outlives every writer.
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

class Logger {
 public:
  Logger() : out_(stdout) {}
  ~Logger() {
    std::lock_guard<std::mutex> guard(mutex_);
    std::fflush(out_);
    out_ = nullptr;  // closed: the process is going away
  }
  void write(const std::string& line) {
    std::lock_guard<std::mutex> guard(mutex_);
    std::fputs(line.c_str(), out_);
    std::fputc('\n', out_);
  }

 private:
  std::mutex mutex_;
  std::FILE* out_;
};

Logger g_log;

int main() {
  g_log.write("starting");
  std::thread heartbeat([] {
    for (int i = 0; i < 2; ++i) g_log.write("heartbeat " + std::to_string(i));
  });
  g_log.write("main done");
  heartbeat.join();
  return 0;
}
