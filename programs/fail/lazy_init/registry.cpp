// A process-wide metrics registry, created on first use. registry() is not thread-safe:
// two threads that both find it missing both create one, and the metrics the first of
// them registered are lost with it.
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

static Registry* g_registry = nullptr;

Registry& registry() {
  if (g_registry == nullptr) g_registry = new Registry();
  return *g_registry;
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
