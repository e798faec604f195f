// weft merge on any input: 1 to 3 JSON documents (the input split at NUL bytes), each read
// as weft merge reads a result file, then merged as weft merge and weft run --jobs do.
//
// Invariants:
//  - nothing throws (a wrong-typed field is refused, not an uncaught type_error: issue 27,
//    defect 4), and a refusal is a non-empty message;
//  - a merge that succeeds is itself a result as the schema has it: weft merge reads it
//    back as one whole, unsharded search.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/merge_results.hpp"
#include "fuzz/fuzz_check.hpp"

namespace {

using weft::cli::ShardResult;

void merge(const std::vector<ShardResult>& inputs) {
  std::string error;
  const std::uint32_t count = weft::cli::shard_count_of(inputs, &error);
  if (count == 0) {
    FUZZ_CHECK(!error.empty(), "a refusal says why");
    return;
  }
  // As weft merge expects them: every index below the count.
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < count; ++i) expected.push_back(i);
  // weft merge (every shard expected), and weft run --jobs (the first bug alone).
  for (bool first_bug_only : {false, true}) {
    const weft::cli::MergeOutcome m =
        weft::cli::merge_results(inputs, count, expected, first_bug_only,
                                 first_bug_only ? "worker" : "shard");
    if (!m.error.empty()) continue;
    FUZZ_CHECK(m.merged.is_object() && m.merged["bugs"].is_array(), "a merged result");
    FUZZ_CHECK(m.winner < static_cast<int>(inputs.size()), "the winner is an input");
    FUZZ_CHECK(m.winner >= 0 || m.merged["bugs"].empty(), "a bug has a winner");
    const std::string text = m.merged.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    const auto back = nlohmann::ordered_json::parse(text, nullptr, false);
    FUZZ_CHECK(!back.is_discarded(), "the merged result is JSON");
    std::vector<ShardResult> again{{"merged.json", back}};
    FUZZ_CHECK(weft::cli::shard_count_of(again, &error) == 1,
               "the merged result reads back as a whole search: " + error);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<ShardResult> inputs;
  while (inputs.size() < 3) {
    const std::size_t nul = inputs.size() < 2 ? rest.find('\0') : std::string_view::npos;
    const std::string_view doc = rest.substr(0, nul);
    // As weft merge reads a file: not JSON is refused before any merging.
    auto parsed = nlohmann::ordered_json::parse(doc.begin(), doc.end(), nullptr, false);
    if (parsed.is_discarded()) return 0;
    inputs.push_back({"shard" + std::to_string(inputs.size()) + ".json", std::move(parsed)});
    if (nul == std::string_view::npos) break;
    rest.remove_prefix(nul + 1);
  }
  merge(inputs);
  return 0;
}
