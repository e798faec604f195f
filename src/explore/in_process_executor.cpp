#include "explore/in_process_executor.hpp"

#include <stdlib.h>

namespace weft::explorer {
namespace {

// Executions here share one process, so libc's random generators carry their state from
// one to the next: each execution starts them where a new process does (glibc seeds
// random() and rand() with 1, and drand48's state is all zeros), so that an execution is
// a function of its schedule, as under the fork executor.
void restart_random_generators() {
  srandom(1);
  unsigned short zero[3] = {0, 0, 0};
  seed48(zero);
}

}  // namespace

Executed InProcessExecutor::run(std::uint64_t number, std::uint64_t /*deadline_ns*/) {
  // (The time budget inside an execution is the test binary's to keep: it kills this
  // process past it.)
  s_.region->header().executions.store(number, std::memory_order_relaxed);
  // The search may have started over on new scheduling points: its strategy now.
  controller_.set_strategy(s_.strategy.get());
  if (coverage_on_bug_) s_.sink->set_strategy(s_.strategy.get());
  restart_random_generators();
  controller_.run_execution(body_);
  return {};
}

}  // namespace weft::explorer
