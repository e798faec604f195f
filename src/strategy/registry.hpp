#pragma once
// The one place strategies are registered: their names, how to spell them, and how to
// make one from a spec ("random", "dfs", "pct", "pct:3"). Adding a strategy touches its
// own file and the table in registry.cpp, nothing else.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/program_symbols.hpp"
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
  // --bound pb:<c>: only executions with at most c preemptions (dfs and bf take one;
  // giving it to another strategy is an error). kNoBound: none.
  static constexpr std::uint64_t kNoBound = ~std::uint64_t{0};
  std::uint64_t preemption_bound = kNoBound;
  // Resolves bf's method= and var= names. Without it, names are only checked when
  // syntax_only is set (a command line checked before the program is loaded); otherwise
  // they are an error.
  ProgramSymbols* symbols = nullptr;
  bool syntax_only = false;
};

// Parses "pb:<c>" (the only bound kind there is) into *bound; false and a one-line
// *error otherwise.
bool parse_bound_option(std::string_view text, std::uint64_t* bound, std::string* error);

// Makes the strategy a spec names, seeded with `seed` (systematic strategies ignore it).
// nullptr and a one-line *error (naming what was wrong and what is accepted) when the
// spec is not valid. `error` may be null.
std::unique_ptr<Strategy> make_strategy(std::string_view spec, std::uint64_t seed,
                                        std::string* error, const StrategyOptions& options = {});

}  // namespace weft
