#pragma once
// weft run --checkpoint FILE: a search saved between executions, so that the same command
// run again resumes it (issue #28). The file is a few header lines, then the strategy's
// state as words (Strategy::save_state), then a checksum of all that precedes it:
//
//   weft-checkpoint 1
//   fingerprint <16 hex digits>         the program's, as in its schedules
//   option <name> <value>               each option that shapes the search space
//   executions <n> / classes <n> / bugs <n> / complete <0|1>
//   points <the racy points, comma-separated>
//   state <n>                           then n little-endian 64-bit words
//   check <16 hex digits>               FNV-1a of every byte before this line
//
// It is written to FILE.tmp, synced and renamed over FILE: a run killed at any moment
// leaves the last whole checkpoint. A file that is not one (damaged, truncated, too large,
// another version) is refused with one line, never followed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace weft {

struct Checkpoint {
  static constexpr int kVersion = 1;
  // The most a checkpoint may be: a search's tree is far smaller; a bigger file is not one.
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 30;

  std::uint64_t fingerprint = 0;
  std::vector<std::pair<std::string, std::string>> options;  // name, value
  std::uint64_t executions = 0;                              // run so far, all runs together
  std::uint64_t classes = 0;  // happens-before classes so far (0: not counted)
  std::uint64_t bugs = 0;     // distinct bugs found so far
  bool complete = false;      // the search ended: nothing left to resume
  std::string points;         // the racy scheduling points the search is on
  std::vector<std::uint64_t> state;
};

std::string encode_checkpoint(const Checkpoint& c);
// false, and *error one line saying what is wrong with it.
bool decode_checkpoint(std::string_view bytes, Checkpoint* out, std::string* error);
// Reads FILE (at most kMaxBytes). false: *error, one line naming the file.
bool read_checkpoint(const std::string& path, Checkpoint* out, std::string* error);
// FILE.tmp, fsync, rename: FILE is always a whole checkpoint. false: *error.
bool write_checkpoint(const std::string& path, const Checkpoint& c, std::string* error);
// "" when `saved` is a checkpoint of this search (the program's fingerprint and every
// option agree); else one line naming what differs.
std::string checkpoint_mismatch(const std::string& path, const Checkpoint& saved,
                                std::uint64_t fingerprint,
                                const std::vector<std::pair<std::string, std::string>>& options);

// The options as weft run hands them to the program (WEFT_CHECKPOINT_OPTIONS): one
// "name value" line each, escaped as in the file.
std::string encode_checkpoint_options(
    const std::vector<std::pair<std::string, std::string>>& options);
bool decode_checkpoint_options(std::string_view text,
                               std::vector<std::pair<std::string, std::string>>* out);

}  // namespace weft
