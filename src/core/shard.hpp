#pragma once
// One shard of a search: the part of the schedule space worker `index` of `count` covers,
// chosen with no coordination (weft run --shard, --jobs; Bazel, GoogleTest, Kubernetes and
// Slurm sharding). Samplers take every count-th execution of the unsharded sequence;
// systematic strategies take disjoint subtrees of the execution tree.
#include <charconv>
#include <cstdint>
#include <string_view>

namespace weft {

struct Shard {
  // The most shards a search is split into (weft run's --shard and --shards, the engines'
  // variables, --jobs' workers of one shard times its count, weft merge): a merge lists
  // the shards it expects and those missing, and a count of 2^32 - 1 took 16 GB.
  static constexpr std::uint32_t kMaxCount = std::uint32_t{1} << 20;
  std::uint32_t index = 0;  // 0 <= index < count
  std::uint32_t count = 1;
  bool sharded() const { return count > 1; }
  // The unsharded search's number for this shard's execution k (from 0): samplers seed
  // it with execution_seed(seed, global(k)), so that the shards together draw exactly
  // the unsharded seeds.
  std::uint64_t global(std::uint64_t k) const { return index + count * k; }
  bool valid() const { return count > 0 && index < count; }
  // How many of the unsharded search's first `executions` (> 0) are this shard's: those
  // numbered global(k) below it. 0 when the budget ends before this shard's first.
  std::uint64_t share(std::uint64_t executions) const {
    return executions <= index ? 0 : (executions - index + count - 1) / count;
  }
  // "I/N" (as --shard and WEFT_SHARD spell it): false unless two decimal numbers around
  // one '/'; whether they make a shard is valid()'s to say.
  static bool parse(std::string_view text, Shard* out) {
    const auto slash = text.find('/');
    if (slash == std::string_view::npos) return false;
    auto number = [](std::string_view t, std::uint32_t* v) {
      const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), *v);
      return !t.empty() && ec == std::errc() && end == t.data() + t.size();
    };
    return number(text.substr(0, slash), &out->index) &&
           number(text.substr(slash + 1), &out->count);
  }
};

}  // namespace weft
