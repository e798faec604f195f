#include "cli/execution_numbering.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace weft::cli {

using ojson = nlohmann::ordered_json;

std::string ExecutionNumbering::add_part(const ojson& result, std::uint32_t index,
                                         std::uint32_t count) {
  compacting_ = true;
  count_ = count;
  const ojson runs = result.value("order_runs", ojson());
  if (!runs.is_array())
    return "field \"order_runs\" is missing (expected an array of [first, count])";
  for (const ojson& r : runs) {
    if (!r.is_array() || r.size() != 2 || !r[0].is_number_unsigned() || !r[1].is_number_unsigned())
      return "field \"order_runs\" must hold pairs [first, count] of whole numbers >= 0";
    runs_.push_back({index, count, r[0].get<std::uint64_t>(), r[1].get<std::uint64_t>()});
  }
  return "";
}

std::uint64_t ExecutionNumbering::compact(std::uint64_t numbered) const {
  if (!compacting_ || numbered == 0) return numbered;
  const std::uint64_t global = numbered - 1;
  std::uint64_t before = 0;
  for (const Run& r : runs_) {
    if (global <= r.index) continue;
    // The part's places o with index + count x o < global: o below `limit`.
    const std::uint64_t limit = (global - r.index + r.count - 1) / r.count;
    if (limit > r.first) before += std::min(limit - r.first, r.length);
  }
  return before + 1;
}

void ExecutionNumbering::renumber(ojson* merged) {
  for (const char* list : {"bugs", "races"}) {
    if (!merged->contains(list)) continue;
    for (ojson& b : (*merged)[list]) {
      const std::uint64_t numbered = b.value("execution", std::uint64_t{1});
      b["execution"] = compact(numbered);
      if (!compacting_ || !b.contains("leads_to")) continue;
      // What a race leads to: found by the worker that went on past the race, its
      // executions after it (k places on in the order: k / count executions later).
      ojson& leads = b["leads_to"];
      const std::uint64_t later = leads.value("execution", std::uint64_t{1});
      const std::uint64_t after = later > numbered ? (later - numbered) / count_ : 0;
      leads["execution"] = leads_to_[later] = compact(numbered) + after;
    }
  }
}

std::string ExecutionNumbering::renumber(std::string text, std::uint64_t executions) const {
  auto skip_space = [&](std::size_t i) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    return i;
  };
  // Past `w` and the space after it, or npos when `w` is not at i.
  auto word = [&](std::size_t i, std::string_view w) {
    return i != std::string::npos && text.compare(i, w.size(), w) == 0 ? skip_space(i + w.size())
                                                                       : std::string::npos;
  };
  auto digits = [&](std::size_t i) {
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i;
  };
  // Replaces the number at i, if any, by to(it): past the new number, or npos.
  auto replace_number = [&](std::size_t i, std::uint64_t* n, auto to) {
    if (i == std::string::npos || digits(i) == i || digits(i) - i > 19) return std::string::npos;
    *n = to(std::stoull(text.substr(i, digits(i) - i)));
    const std::string shown = std::to_string(*n);
    text.replace(i, digits(i) - i, shown);
    return i + shown.size();
  };
  const auto own = [&](std::uint64_t k) { return compact(k); };
  std::uint64_t n = 0, of = 0;  // the number found; "of"'s, unused
  for (std::size_t at = text.find("found in"); at != std::string::npos;
       at = text.find("found in", at + 1)) {
    std::size_t i = word(skip_space(at + 8), "execution");
    if (i == std::string::npos) continue;
    if (std::size_t span = word(i, "<span id=\"execution\">"); span != std::string::npos) i = span;
    i = replace_number(i, &n, own);
    if (i == std::string::npos) continue;
    if (std::size_t close = word(i, "</span>"); close != std::string::npos) i = close;
    // A sharded search's number is in the unsharded search: it may pass this part's count.
    replace_number(word(skip_space(i), "of"), &of,
                   [&](std::uint64_t) { return std::max(n, executions); });
  }
  const auto leads = [&](std::uint64_t k) {
    const auto at = leads_to_.find(k);
    return at != leads_to_.end() ? at->second : compact(k);
  };
  for (std::size_t at = text.find("(execution"); at != std::string::npos;
       at = text.find("(execution", at + 1))
    replace_number(skip_space(at + 10), &n, leads);
  return text;
}

}  // namespace weft::cli
