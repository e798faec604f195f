// A program that logs from a detached background thread into a global logger. main
// returns while the detached thread may still be writing: exit() runs the logger's
// destructor, which closes the log, under the thread's feet.
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
  std::thread([] {
    for (int i = 0; i < 2; ++i) g_log.write("heartbeat " + std::to_string(i));
  }).detach();
  g_log.write("main done");
  return 0;
}
