#pragma once
// --checkpoint FILE (weft run) and WEFT_CHECKPOINT (weft::explore): the search, saved
// every few seconds between executions and when it ends, resumed from FILE when it exists
// (core/checkpoint.hpp is the file; Strategy::save_state the search in it).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/checkpoint.hpp"
#include "core/strategy.hpp"

namespace weft::explorer {

class SearchCheckpoint {
 public:
  using Options = std::vector<std::pair<std::string, std::string>>;
  // Inactive (every call a no-op) when `path` is empty. `options`: what shapes the search
  // space, which a resumed run must have the same.
  SearchCheckpoint(std::string path, double every_s, Options options, std::uint64_t fingerprint);
  bool active() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

  // Reads FILE when it exists. false: *error (one line: another search's, or damaged).
  // *resumed: it existed; saved() then holds it.
  bool open(bool* resumed, std::string* error);
  const Checkpoint& saved() const { return saved_; }
  // Hands the saved state to `strategy` (made as the saved search's, on its points).
  bool restore(Strategy& strategy, std::string* error) const;

  struct Progress {
    std::uint64_t executions = 0;  // all runs together
    std::uint64_t bugs = 0;
    bool complete = false;
    std::string points;
  };
  // Between executions: the period since the last save has passed.
  bool due(std::uint64_t now_ns) const { return active() && now_ns >= next_ns_; }
  // Saves the search (`unfinished` as Strategy::save_state says). "" or a one-line error.
  std::string save(const Strategy& strategy, bool unfinished, const Progress& progress,
                   std::uint64_t now_ns);

 private:
  std::string path_;
  std::uint64_t every_ns_;
  Options options_;
  std::uint64_t fingerprint_;
  std::uint64_t next_ns_ = 0;
  Checkpoint saved_;
};

}  // namespace weft::explorer
