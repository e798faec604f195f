#include "cli/shard_source.hpp"

#include "core/numbers.hpp"

namespace weft::cli {
namespace {

// A number of the engines' variables, read as every number weft takes (core/numbers.hpp):
// decimal digits only, at most 2^32 - 1 (counts are checked against kShardCountNumber).
bool parse_u32(const std::string& text, std::uint32_t* out) {
  std::uint64_t v = 0;
  if (!read_number(text, WholeNumber{0, 0xffffffffu, ""}, &v).empty()) return false;
  *out = static_cast<std::uint32_t>(v);
  return true;
}

struct Candidate {
  Shard shard;
  std::string source;
};

}  // namespace

bool parse_shard(std::string_view text, Shard* shard, std::string* error) {
  Shard s;
  if (!Shard::parse(text, &s)) {
    *error = "--shard expects I/N (shard I of N, 0 <= I < N), not '" + std::string(text) + "'";
    return false;
  }
  if (s.count > Shard::kMaxCount) {
    *error = "--shard " + std::string(text) + ": the count is not valid: give " +
             kShardCountNumber.accepted;
    return false;
  }
  if (!s.valid()) {
    *error = "--shard " + std::string(text) + ": the index must be below the count (shards " +
             "are numbered 0 to N-1, N >= 1)";
    return false;
  }
  *shard = s;
  return true;
}

bool resolve_shard(const std::string& explicit_shard, std::uint32_t shards, ShardChoice* out,
                   std::string* error, const Getenv& getenv) {
  auto env = [&](const char* name) -> std::string {
    const char* v = getenv(name);
    return v == nullptr ? "" : v;
  };
  std::vector<Candidate> found;
  // One engine's pair of variables: both or neither, numbers, index below count.
  auto pair = [&](const char* index_var, const char* count_var, const char* engine,
                  std::uint32_t base = 0) {
    const std::string i = env(index_var), n = env(count_var);
    if (i.empty() && n.empty()) return true;
    const std::string source = std::string(index_var) + "/" + count_var + " (" + engine + ")";
    std::uint32_t index = 0, count = 0;
    if (std::uint64_t c = 0; !n.empty() && !read_number(n, kShardCountNumber, &c).empty()) {
      *error = "cannot shard by " + source + ": " + count_var + "=" +
               read_number(n, kShardCountNumber, &c);
      return false;
    }
    if (i.empty() || n.empty() || !parse_u32(i, &index) || !parse_u32(n, &count) || index < base ||
        count == 0 || index - base >= count) {
      *error = "cannot shard by " + source + ": " + index_var + "='" + i + "', " + count_var +
               "='" + n + "' (expected an index from " + std::to_string(base) +
               " below the count plus " + std::to_string(base) + ")";
      return false;
    }
    found.push_back({Shard{index - base, count}, source});
    return true;
  };
  if (!pair("TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS", "Bazel")) return false;
  if (!pair("GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS", "GoogleTest")) return false;
  {
    // Slurm numbers array tasks from SLURM_ARRAY_TASK_MIN (often 0 or 1).
    std::uint32_t base = 0;
    if (const std::string min = env("SLURM_ARRAY_TASK_MIN");
        !min.empty() && !parse_u32(min, &base)) {
      *error = "cannot shard by Slurm: SLURM_ARRAY_TASK_MIN='" + min + "' is not a number";
      return false;
    }
    if (!pair("SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "Slurm", base)) return false;
  }
  if (shards > Shard::kMaxCount) {  // weft run's --shards is checked as it is read
    *error =
        "--shards " + std::to_string(shards) + " is not valid: give " + kShardCountNumber.accepted;
    return false;
  }
  std::uint32_t k8s_count = shards;
  // Set but empty is refused as --shards '' is.
  if (const char* n = getenv("WEFT_SHARDS"); k8s_count == 0 && n != nullptr) {
    std::uint64_t c = 0;
    if (std::string e = read_number(n, kShardCountNumber, &c); !e.empty()) {
      *error = "WEFT_SHARDS=" + e;
      return false;
    }
    k8s_count = static_cast<std::uint32_t>(c);
  }
  if (const std::string k = env("JOB_COMPLETION_INDEX"); !k.empty()) {
    std::uint32_t index = 0;
    if (!parse_u32(k, &index)) {
      *error = "cannot shard by JOB_COMPLETION_INDEX='" + k + "' (Kubernetes): not a number";
      return false;
    }
    if (k8s_count == 0) {
      if (explicit_shard.empty()) {
        *error =
            "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the shard "
            "count: give --shards N or WEFT_SHARDS=N (the Job's completions), or --shard I/N";
        return false;
      }
    } else if (index >= k8s_count) {
      *error = "JOB_COMPLETION_INDEX=" + k + " is not below the shard count " +
               std::to_string(k8s_count) + " (--shards or WEFT_SHARDS)";
      return false;
    } else {
      found.push_back({Shard{index, k8s_count}, "JOB_COMPLETION_INDEX (Kubernetes) with " +
                                                    std::to_string(k8s_count) + " shards"});
    }
  } else if (shards != 0 && explicit_shard.empty()) {
    *error =
        "--shards gives only the shard count (for a Kubernetes Indexed Job's "
        "JOB_COMPLETION_INDEX, which is not set); give --shard I/N";
    return false;
  }
  out->status_file = env("TEST_SHARD_STATUS_FILE");

  auto text = [](const Shard& s) {
    return std::to_string(s.index) + "/" + std::to_string(s.count);
  };
  if (!explicit_shard.empty()) {
    if (!parse_shard(explicit_shard, &out->shard, error)) return false;
    out->source = "--shard";
    for (const Candidate& c : found)
      if (c.shard.index != out->shard.index || c.shard.count != out->shard.count)
        out->ignored += (out->ignored.empty() ? "" : ", ") + c.source + " says " + text(c.shard);
    return true;
  }
  for (const Candidate& c : found)
    if (c.shard.index != found[0].shard.index || c.shard.count != found[0].shard.count) {
      *error = "conflicting shards: " + found[0].source + " says " + text(found[0].shard) + ", " +
               c.source + " says " + text(c.shard) + "; give --shard I/N to choose";
      return false;
    }
  if (!found.empty()) {
    out->shard = found[0].shard;
    out->source = found[0].source;
    for (std::size_t i = 1; i < found.size(); ++i) out->source += ", " + found[i].source;
  }
  return true;
}

}  // namespace weft::cli
