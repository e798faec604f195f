#pragma once
// Which shard of a search this weft run is: --shard I/N, or the sharding conventions of
// the engines C++ teams run tests on, so that no wrapper script is needed.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/shard.hpp"

namespace weft::cli {

struct ShardChoice {
  Shard shard;              // {0, 1}: not sharded
  std::string source;       // "--shard", "TEST_SHARD_INDEX/TEST_TOTAL_SHARDS (Bazel)", ...
  std::string ignored;      // sources an explicit --shard overrode, for a note ("" none)
  std::string status_file;  // Bazel's TEST_SHARD_STATUS_FILE: touched to say weft shards
};

// Parses "I/N" (0 <= I < N); false and a one-line *error naming what is accepted.
bool parse_shard(std::string_view text, Shard* shard, std::string* error);

using Getenv = std::function<const char*(const char*)>;

// explicit_shard: --shard's text ("" when not given); shards: --shards N (0: not given),
// the count of a Kubernetes Indexed Job (JOB_COMPLETION_INDEX carries only the index).
// An explicit --shard wins over the environment; engines' variables that disagree with
// each other, without one, are an error naming them.
bool resolve_shard(const std::string& explicit_shard, std::uint32_t shards, ShardChoice* out,
                   std::string* error, const Getenv& getenv);

}  // namespace weft::cli
