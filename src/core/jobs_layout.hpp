#pragma once
// The words the workers of one `weft run --jobs` share in one file: the CLI makes it and
// reads the progress, each worker's fork server maps it (explore/fork_server.cpp).
#include <cstddef>
#include <cstdint>

namespace weft {

struct JobsLayout {
  // The smallest global number (Shard::global) of an execution that found a bug.
  static constexpr std::size_t kFirstBug = 0;
  static constexpr std::uint64_t kNoBug = ~std::uint64_t{0};
  // Executions started by all workers (systematic strategies share the budget).
  static constexpr std::size_t kStarted = 1;
  // Worker j's executions and bugs so far, for the progress line.
  static constexpr std::size_t executions(std::size_t worker) { return 2 + 2 * worker; }
  static constexpr std::size_t bugs(std::size_t worker) { return 3 + 2 * worker; }
  static constexpr std::size_t words(std::size_t workers) { return 2 + 2 * workers; }
};

}  // namespace weft
