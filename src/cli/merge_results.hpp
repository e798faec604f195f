#pragma once
// Combines the results of the shards of one search (weft merge; weft run --jobs) into the
// search's result: one execution count, one coverage statement, the bugs in the order the
// unsharded numbering puts them (Shard::global), each distinct bug once.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace weft::cli {

struct ShardResult {
  std::string name;             // for messages: the file, or "job 2"
  nlohmann::ordered_json json;  // as weft run --json writes it
};

struct MergeOutcome {
  nlohmann::ordered_json merged;
  std::string error;  // one line: inputs that do not belong together ("" when merged)
  int winner = -1;    // the input whose first bug is the merged first bug (-1: no bug)
  std::vector<std::uint32_t> missing;  // shard indexes expected and not given
};

// `count`, `expected`: the shards that make the whole (weft merge: every index below the
// inputs' count; --jobs within shard i of n: i, i + n, ... of n * jobs). Refuses inputs
// of different programs, arguments, strategies, seeds or weft versions, and a shard given
// twice, naming the mismatch.
// first_bug_only: the shards stopped at the first bug (weft run --jobs without
// --keep-going): the merged result has that bug alone, as one search would.
// `noun`: what the coverage summary calls the parts ("worker": weft run --jobs, whose
// inputs are named after their workers).
MergeOutcome merge_results(const std::vector<ShardResult>& inputs, std::uint32_t count,
                           const std::vector<std::uint32_t>& expected, bool first_bug_only = false,
                           const std::string& noun = "shard");

// The shard count the inputs state (1 for an unsharded result); 0 and *error when they
// disagree or a result is malformed.
std::uint32_t shard_count_of(const std::vector<ShardResult>& inputs, std::string* error);

}  // namespace weft::cli
