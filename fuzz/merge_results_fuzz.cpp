// weft merge on any input: 1 to 3 JSON documents (the input split at NUL bytes), each read
// as weft merge reads a result file, then merged as weft merge and weft run --jobs do.
//
// Byte mutations rarely keep JSON valid while retyping a field, so each input is merged
// again with one value (chosen by the input's hash) replaced by a value of another type or
// an extreme number: a field as a hostile or hand-edited result file might hold it.
//
// Invariants:
//  - nothing throws (a wrong-typed field is refused, not an uncaught type_error: issue 27,
//    defect 4), and a refusal is a non-empty message;
//  - a merge that succeeds is itself a result as the schema has it: weft merge reads it
//    back as one whole, unsharded search.
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "cli/merge_results.hpp"
#include "core/schedule.hpp"  // fnv1a64
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

using json = nlohmann::ordered_json;

// `docs` with one value, or the object or array around it, replaced.
std::vector<ShardResult> retyped(std::vector<ShardResult> docs, std::uint64_t h) {
  static const json kValues[] = {
      1, -1, 0, 1.5, 1e30, "x", "", json::array(), json::array({1}), json::object(), nullptr,
      true, false, ~std::uint64_t{0}, 4294967295u, 1048577u, json::array({json::object()})};
  json& doc = docs[h % docs.size()].json;
  h /= docs.size();
  const json flat = doc.flatten();
  if (flat.empty()) return docs;
  auto leaf = flat.begin();
  std::advance(leaf, static_cast<std::ptrdiff_t>(h % flat.size()));
  h /= flat.size();
  json::json_pointer at(leaf.key());
  for (std::uint64_t up = h % 3; up > 0 && !at.empty(); --up) at.pop_back();
  h /= 3;
  if (at.empty()) return docs;
  doc[at] = kValues[h % std::size(kValues)];
  return docs;
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
  merge(retyped(std::move(inputs), weft::fnv1a64(std::string_view(reinterpret_cast<const char*>(data), size))));
  return 0;
}
