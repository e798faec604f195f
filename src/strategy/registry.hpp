#pragma once
// The one place strategies are registered: their names, how to spell them, and how to
// make one from a spec ("random", "dfs", "pct", "pct:3"). Adding a strategy touches its
// own file and the table in registry.cpp, nothing else.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/strategy.hpp"

namespace weft {

struct StrategyInfo {
  std::string_view name;         // "pct"
  std::string_view usage;        // "pct[:<d>]"
  std::string_view description;  // one line, citing the paper
};

// Every registered strategy, in the order a listing shows them.
const std::vector<StrategyInfo>& strategy_list();

// Choices that apply to every strategy that has them (a portfolio's members too).
struct StrategyOptions {
  // The systematic strategies (dfs, pb, db) prune states they explored already
  // (state_cache.hpp). Off: every schedule runs (exact counts).
  bool state_cache = true;
};

// Makes the strategy a spec names, seeded with `seed` (systematic strategies ignore it).
// nullptr and a one-line *error (naming what was wrong and what is accepted) when the
// spec is not valid. `error` may be null.
std::unique_ptr<Strategy> make_strategy(std::string_view spec, std::uint64_t seed,
                                        std::string* error,
                                        const StrategyOptions& options = {});

}  // namespace weft
