// The strategy spec parser (--strategy, WEFT_STRATEGY, weft::check_strategy) on any text,
// as a command line is checked before its program is loaded (syntax_only), with and
// without --bound.
//
// Invariants: a spec makes a strategy or is refused with a non-empty one-line error, never
// both; what it makes answers coverage() (it is whole).
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz/fuzz_check.hpp"
#include "strategy/registry.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view spec(reinterpret_cast<const char*>(data), size);
  for (std::uint64_t bound : {weft::StrategyOptions::kNoBound, std::uint64_t{2}}) {
    for (bool state_cache : {true, false}) {
      std::string error;
      const weft::StrategyOptions options{
          .state_cache = state_cache, .preemption_bound = bound, .syntax_only = true};
      const auto s = weft::make_strategy(spec, 42, &error, options);
      if (s) {
        FUZZ_CHECK(error.empty(), "made, and refused: " + error);
        (void)s->coverage();
      } else {
        FUZZ_CHECK(!error.empty(), "a refusal says why");
        FUZZ_CHECK(weft::fuzz::one_line(error), "a refusal is one line: " + error);
      }
      // The error may be left out (checked once: a strategy may take a while to make).
      if (bound == weft::StrategyOptions::kNoBound && state_cache)
        FUZZ_CHECK((weft::make_strategy(spec, 42, nullptr, options) != nullptr) == (s != nullptr),
                   "the same verdict without an error to fill");
    }
  }
  return 0;
}
