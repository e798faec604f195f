#pragma once
// The words the workers of one `weft run --jobs` share in one file: the CLI makes it and
// reads the progress, each worker's fork server maps it (explore/fork_server.cpp); and,
// from kTeamOffset, the area where the workers of a systematic search pass each other
// work (explore/work_team.cpp).
#include <atomic>
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

  // --- the team area (64-bit words from kTeamOffset bytes; the file is sparse) ---------
  static constexpr std::size_t kTeamOffset = std::size_t{1} << 16;
  static constexpr std::size_t kMaxWorkers = 4096;  // words(kMaxWorkers) fit below it
  // The barrier: arrived | live << 16 | generation << 32 (the CLI sets live = workers).
  static constexpr std::size_t kBarrier = 0;
  static constexpr std::uint64_t barrier(std::uint64_t arrived, std::uint64_t live,
                                         std::uint64_t generation) {
    return arrived | live << 16 | generation << 32;
  }
  static constexpr std::uint64_t arrived(std::uint64_t barrier) { return barrier & 0xffff; }
  static constexpr std::uint64_t live(std::uint64_t barrier) { return (barrier >> 16) & 0xffff; }
  static constexpr std::uint32_t generation(std::uint64_t barrier) {
    return static_cast<std::uint32_t>(barrier >> 32);
  }
  // The generation is the high half of the barrier's word (little-endian): the futex word
  // the workers sleep on until a phase completes.
  static std::uint32_t* generation_word(std::atomic<std::uint64_t>& barrier) {
    return reinterpret_cast<std::uint32_t*>(&barrier) + 1;
  }
  // Non-zero: a worker died; the others leave the team (the CLI sets it).
  static constexpr std::size_t kAbort = 1;
  // Worker j's slot: what it published in the last exchange.
  enum SlotField : std::size_t {
    kRound,       // the exchange it was published for
    kWork,        // executions known still to run there
    kForwards,    // words in its outbox
    kPending,     // forwarded words that did not fit the outbox (the team is not done)
    kSpace,       // the schedule space it searches
    kInboxRound,  // the exchange whose work its inbox holds
    kInboxSize,   // words in its inbox
    kDeparted,    // it left the team
    kSlotWords
  };
  static constexpr std::size_t slot(std::size_t worker) { return 2 + kSlotWords * worker; }
  // Worker j's outbox (the branches it forwards), inbox (the work given to it) and racy
  // box (the code locations it saw racing, --preempt-on racy: a count, then the pcs, so
  // that every worker searches the same space).
  static constexpr std::size_t kOutboxWords = std::size_t{1} << 16;
  static constexpr std::size_t kInboxWords = std::size_t{1} << 18;
  static constexpr std::size_t kRacyWords = 1024;
  static constexpr std::size_t boxes(std::size_t workers) { return 2 + kSlotWords * workers; }
  static constexpr std::size_t outbox(std::size_t workers, std::size_t worker) {
    return boxes(workers) + (kOutboxWords + kInboxWords + kRacyWords) * worker;
  }
  static constexpr std::size_t inbox(std::size_t workers, std::size_t worker) {
    return outbox(workers, worker) + kOutboxWords;
  }
  static constexpr std::size_t racy_box(std::size_t workers, std::size_t worker) {
    return inbox(workers, worker) + kInboxWords;
  }
  static constexpr std::size_t file_bytes(std::size_t workers) {
    return kTeamOffset + outbox(workers, workers) * sizeof(std::uint64_t);
  }
};

}  // namespace weft
