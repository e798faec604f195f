// weft::explore from another test framework, here doctest (Catch2 or any other works the
// same way): explore the body, check the Result, show its report when a check fails.
//
// Inside the body, check with WEFT_ASSERT: the body runs in a forked child process, where
// a failed CHECK would be recorded by a doctest the test never hears of.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <weft/environment.hpp>
#include <weft/weft.hpp>

#include <atomic>
#include <mutex>
#include <thread>

namespace {

struct Config {
  int port = 0;
};

// Lazy initialisation with double-checked locking. The broken one publishes the object
// before filling it in, so a second thread can take it half made.
class LazyConfig {
 public:
  explicit LazyConfig(bool broken) : broken_(broken) {}
  ~LazyConfig() { delete instance_.load(); }
  const Config& get() {
    if (Config* c = instance_.load(std::memory_order_acquire)) return *c;
    std::lock_guard<std::mutex> g(lock_);
    if (instance_.load(std::memory_order_relaxed) == nullptr) {
      auto* c = new Config;
      if (broken_) instance_.store(c, std::memory_order_release);
      c->port = 8080;
      if (!broken_) instance_.store(c, std::memory_order_release);
    }
    return *instance_.load(std::memory_order_relaxed);
  }

 private:
  const bool broken_;
  std::mutex lock_;
  std::atomic<Config*> instance_{nullptr};
};

void two_readers(bool broken) {
  LazyConfig config(broken);
  auto read = [&] { WEFT_ASSERT(config.get().port == 8080); };
  std::thread a(read), b(read);
  a.join();
  b.join();
}

void broken_body() { two_readers(true); }
void fixed_body() { two_readers(false); }

}  // namespace

TEST_CASE("a half-made object is found, and its schedule replays it") {
  weft::Result r = weft::explore(broken_body, {.strategy = "random", .executions = 10000, .seed = 1});
  REQUIRE_FALSE(r.ok());
  MESSAGE(r.report());  // the interleaving, with source lines
  CHECK(r.bugs()[0].kind() == weft::BugKind::kAssertion);
  CHECK(weft::replay(broken_body, r.bugs()[0].schedule()).failed());
}

TEST_CASE("the fixed twin passes") {
  // The test's own budget, which WEFT_STRATEGY, WEFT_EXECUTIONS, WEFT_TIME and WEFT_SEED
  // override (a longer search in CI).
  weft::Options options{.strategy = "pct:2", .executions = 2000, .seed = 1};
  const std::string error = weft::apply_environment(options);
  REQUIRE_MESSAGE(error.empty(), error);
  weft::Result r = weft::explore(fixed_body, options);
  CHECK_MESSAGE(r.ok(), r.report());  // a bug here would print its interleaving
}
