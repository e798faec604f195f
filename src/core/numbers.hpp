#pragma once
// The numbers weft run takes (--seed, --executions, --time, ...) and hands its program's
// fork server in WEFT_* variables, read by the rules WEFT_TEST reads its own variables by
// (weft/environment.hpp): whole numbers as integers over the whole uint64 range, seconds
// finite and never negative, no sign, exponent, hex or octal; with one error text wherever
// the number arrives.
#include <charconv>
#include <cstdint>
#include <string>

#include "core/shard.hpp"
#include "weft/environment.hpp"

namespace weft {

struct WholeNumber {
  std::uint64_t lo, hi;
  const char* accepted;  // "a whole number from ...": what the error asks for
};

struct Seconds {
  double lo, hi;
  const char* accepted;
};

inline constexpr WholeNumber kSeedNumber{0, ~std::uint64_t{0}, detail::kSeedAccepted};
inline constexpr WholeNumber kExecutionsNumber{0, ~std::uint64_t{0}, detail::kExecutionsAccepted};
inline constexpr WholeNumber kStepsNumber{1, 50'000'000, "a whole number from 1 to 50000000"};
inline constexpr WholeNumber kJobsNumber{1, 256, "a whole number of workers from 1 to 256"};
inline constexpr WholeNumber kShardCountNumber{1, Shard::kMaxCount, detail::kShardsAccepted};
static_assert(Shard::kMaxCount == detail::kMaxShards, "kShardsAccepted names the limit");
inline constexpr Seconds kTimeSeconds{0, detail::kMaxSeconds, detail::kTimeAccepted};
inline constexpr Seconds kHangTimeoutSeconds{0.01, 86400, "seconds, a number from 0.01 to 86400"};
// --checkpoint-every: how often a search is saved.
inline constexpr Seconds kCheckpointEverySeconds{0.001, 86400,
                                                 "seconds, a number from 0.001 to 86400"};

inline std::string not_valid(const std::string& text, const char* accepted) {
  return "'" + text + "' is not valid: give " + accepted;
}

// "" with *out set, or "'<text>' is not valid: give <accepted>" (*out unchanged).
inline std::string read_number(const std::string& text, const WholeNumber& n, std::uint64_t* out) {
  std::uint64_t v = 0;
  if (!detail::parse_whole(text, &v) || v < n.lo || v > n.hi) return not_valid(text, n.accepted);
  *out = v;
  return "";
}

inline std::string read_number(const std::string& text, const Seconds& n, double* out) {
  double v = 0;
  if (!detail::parse_seconds(text, &v, n.hi) || v < n.lo) return not_valid(text, n.accepted);
  *out = v;
  return "";
}

// Seconds as read_number reads them back: fixed notation with every digit that matters
// (std::to_string's six decimals would turn 0.0000001 into 0, no limit).
inline std::string seconds_text(double s) {
  char buf[512];  // the longest fixed double below 1e9, the smallest subnormal's, fits
  const auto r = std::to_chars(buf, buf + sizeof buf, s, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

}  // namespace weft
