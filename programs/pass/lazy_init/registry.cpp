// A process-wide metrics registry, created on first use. registry() uses a function-local
// static: C++11 guarantees that exactly one thread constructs it and the others wait.
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Registry {
 public:
  void add(const std::string& metric) {
    std::lock_guard<std::mutex> guard(mutex_);
    metrics_.push_back(metric);
  }
  std::size_t size() {
    std::lock_guard<std::mutex> guard(mutex_);
    return metrics_.size();
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> metrics_;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

int main() {
  std::thread http([] { registry().add("http.requests"); });
  std::thread db([] { registry().add("db.queries"); });
  http.join();
  db.join();
  const std::size_t n = registry().size();
  std::printf("%zu metrics registered\n", n);
  return n == 2 ? 0 : 1;
}
