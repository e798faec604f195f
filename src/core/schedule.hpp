#pragma once
// A schedule: every decision of one execution, enough to reproduce it exactly, and its
// compact, versioned, copy-pasteable text form.
//
//   weft1.<fingerprint>.<strategy>.<seed>.<decisions>.<check>
//
// fingerprint: 16 hex digits naming the test (or program) it was recorded on;
// strategy: percent-escaped; decisions: comma-separated, "T" = thread T ran,
// "TxN" = thread T ran N steps in a row, "vK" = data choice K; check: FNV-1a of the rest.
// An execution that had extra scheduling points (accesses known to race, --preempt-on=racy)
// names them, since the decisions depend on them:
//
//   weft2.<fingerprint>.<strategy>.<seed>.<points>.<decisions>.<check>
//
// points: comma-separated, each percent-escaped "<module>+<hex offset>" (code_location).
// A schedule weft run records also names the options that shaped its execution, so that
// a replay needs none (issue #26, 5):
//
//   weft3.<fingerprint>.<strategy>.<seed>.<options>.<points>.<decisions>.<check>
//
// options: comma-separated "name=value", both percent-escaped (',', '=', '.', '%', control
// bytes), names without "--" ("races=report,steps=500"); an option not named had its
// default. points may be empty. weft1 and weft2 schedules do not say (records_options false).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/op.hpp"

namespace weft {

struct Decision {
  enum Kind : std::uint8_t { kThread, kValue };
  Kind kind = kThread;
  std::uint32_t value = 0;
  bool operator==(const Decision&) const = default;
};

struct Schedule {
  static constexpr int kVersion = 1;
  std::uint64_t fingerprint = 0;
  std::string strategy;
  std::uint64_t seed = 0;
  std::vector<Decision> decisions;
  std::vector<std::string> points;  // code locations of extra scheduling points
  // weft3: the options of the execution (name, value), those at their default left out;
  // false for a weft1 or weft2 schedule, which does not say what they were.
  bool records_options = false;
  std::vector<std::pair<std::string, std::string>> options;
  bool operator==(const Schedule&) const = default;
};

// The most decisions an execution of at most `max_steps` steps records: a thread choice
// per step plus data choices, the capacity of its decision buffer (shared_region.hpp).
constexpr std::uint64_t max_decisions_for(std::uint64_t max_steps) {
  constexpr std::uint64_t kSaturated = ~std::uint64_t{0};
  return max_steps > (kSaturated - 4100) / 2 ? kSaturated : 2 * (max_steps + 2) + 4096;
}
constexpr std::uint64_t kDefaultMaxSteps = 100000;  // Options::max_steps, weft run --steps

std::string encode_schedule(const Schedule& s);
// false with a one-line *error naming what is wrong and what is accepted. A schedule of
// more than `max_decisions` decisions is refused as it is decoded: its repeat counts
// ("0x1073741824") would otherwise let a few bytes of text fill memory.
bool decode_schedule(std::string_view text, Schedule* out, std::string* error,
                     std::uint64_t max_decisions = max_decisions_for(kDefaultMaxSteps));

// The step bound a weft3 schedule's text records (its "steps" option), else `otherwise`:
// what to decode it with (its decisions are capped by max_decisions_for that bound).
std::uint64_t recorded_step_bound(std::string_view text, std::uint64_t otherwise);

// A weft3 schedule's options field alone: weft run hands it to the fork server, which puts
// it in every schedule it writes (WEFT_SCHEDULE_OPTIONS). false: malformed.
std::string encode_schedule_options(
    const std::vector<std::pair<std::string, std::string>>& options);
bool decode_schedule_options(std::string_view field,
                             std::vector<std::pair<std::string, std::string>>* out);

std::uint64_t fnv1a64(std::string_view data, std::uint64_t h = 0xcbf29ce484222325ull);
// The fingerprint of a program run by weft run (its file name): its schedules and
// checkpoints carry it.
inline std::uint64_t program_fingerprint(std::string_view program) {
  const std::size_t slash = program.rfind('/');
  return fnv1a64(std::string("program:") + std::string(slash == std::string_view::npos
                                                           ? program
                                                           : program.substr(slash + 1)));
}

}  // namespace weft
