// Double-checked locking with a plain pointer: the object is published before it is
// filled in (instance = new Config; instance->port = 8080), so a thread that sees the
// pointer outside the lock may read the port before it is set. Both writes of the
// constructing thread race with the reader's read of the port, and share one epoch:
// each must become a scheduling point, not only the constructor's (the first). With
// argument "fixed", the object is filled in before it is published, under the lock, and
// read under it: the correct twin.
#undef NDEBUG
#include <cassert>
#include <cstring>
#include <mutex>
#include <thread>

struct Config {
  int port = 0;
  int backlog = 0;
};

static Config* instance;
static std::mutex lock;
static bool fixed_version;

static Config* get() {
  if (fixed_version) {
    std::lock_guard<std::mutex> g(lock);
    if (instance == nullptr) {
      Config* c = new Config;
      c->port = 8080;
      c->backlog = 16;
      instance = c;
    }
    return instance;
  }
  if (instance == nullptr) {
    std::lock_guard<std::mutex> g(lock);
    if (instance == nullptr) {
      instance = new Config;
      instance->port = 8080;
      instance->backlog = 16;
    }
  }
  return instance;
}

static void use() {
  const Config* c = get();
  if (fixed_version) {
    std::lock_guard<std::mutex> g(lock);
    assert(c->port == 8080);
  } else {
    assert(c->port == 8080);
  }
}

int main(int argc, char** argv) {
  fixed_version = argc > 1 && std::strcmp(argv[1], "fixed") == 0;
  std::thread a(use), b(use);
  a.join();
  b.join();
  delete instance;
  return 0;
}
