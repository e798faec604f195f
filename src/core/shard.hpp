#pragma once
// One shard of a search: the part of the schedule space worker `index` of `count` covers,
// chosen with no coordination (weft run --shard, --jobs; Bazel, GoogleTest, Kubernetes and
// Slurm sharding). Samplers take every count-th execution of the unsharded sequence;
// systematic strategies take disjoint subtrees of the execution tree.
#include <cstdint>

namespace weft {

struct Shard {
  std::uint32_t index = 0;  // 0 <= index < count
  std::uint32_t count = 1;
  bool sharded() const { return count > 1; }
  // The unsharded search's number for this shard's execution k (from 0): samplers seed
  // it with execution_seed(seed, global(k)), so that the shards together draw exactly
  // the unsharded seeds.
  std::uint64_t global(std::uint64_t k) const { return index + count * k; }
};

}  // namespace weft
