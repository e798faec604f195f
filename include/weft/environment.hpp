#pragma once
// Budgets and strategy from the environment, so that CI can search longer than a laptop
// without editing the tests:
//
//   WEFT_STRATEGY    a strategy spec (weft::strategies()), such as pct:3
//   WEFT_EXECUTIONS  executions, a whole number (0: no limit)
//   WEFT_TIME        seconds, a number from 0 to 1e9 (0: no limit)
//   WEFT_SEED        the seed, a whole number
//   WEFT_FIBERS      0, 1 or arch_prctl: how the runtime switches threads (checked here,
//                    read by the runtime)
//   WEFT_MINIMIZE    0: report the first bug's schedule as found, 1: minimised (the
//                    default, Options::minimize)
//   WEFT_CHECKPOINT  a directory: each test's search is saved to
//                    <dir>/<Options::name>.weft-checkpoint as it goes and resumed from it
//                    (Options::checkpoint); WEFT_CHECKPOINT_EVERY: how often, in seconds
//
// Each one set replaces the option it names; both budgets apply, so a search of ten
// minutes is WEFT_EXECUTIONS=0 WEFT_TIME=600. A variable that is set must hold a valid
// value (set and empty is an error too): a typo in CI must not silently fall back to the
// test's small default. WEFT_TEST (weft/gtest.hpp) applies them; from any other framework:
//
//   weft::Options options{.strategy = "random", .executions = 10000};
//   if (std::string e = weft::apply_environment(options); !e.empty()) FAIL(e);
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <string>

#include "weft/weft.hpp"

namespace weft {

namespace detail {

// A whole number in decimal, nothing else (no sign, no spaces, no suffix).
inline bool parse_whole(const std::string& text, std::uint64_t* out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0') return false;
  *out = v;
  return true;
}

// The longest time limit, in seconds (about 31 years): more would overflow nanoseconds.
inline constexpr double kMaxSeconds = 1e9;

// Seconds in decimal, digits and a point only (no sign, exponent, nan or inf), at most `max`.
inline bool parse_seconds(const std::string& text, double* out, double max = kMaxSeconds) {
  if (text.empty() || text.find_first_not_of("0123456789.") != std::string::npos) return false;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v) || v < 0 || v > max) return false;
  *out = v;
  return true;
}

// What each number accepts, in the words of every error about it: these variables, weft
// run's options and the variables weft run hands its program.
inline constexpr const char* kExecutionsAccepted = "a whole number of executions (0: no limit)";
inline constexpr const char* kTimeAccepted =
    "seconds, a number from 0 to 1000000000 such as 600 or 2.5 (0: no limit)";
inline constexpr const char* kSeedAccepted = "a whole number from 0 to 18446744073709551615";
// The most shards a search is split into, however the count is given (weft merge's limit:
// a merge lists the shards it expects).
inline constexpr std::uint64_t kMaxShards = 1048576;
inline constexpr const char* kShardsAccepted = "a whole number of shards from 1 to 1048576";

// The most bytes of a schedule read from a file (WEFT_REPLAY, weft replay): a schedule is
// one line, and /dev/zero or a huge file named by mistake must not fill memory.
inline constexpr std::size_t kMaxScheduleBytes = std::size_t{4} << 20;

// A schedule is one line of printable text: a CR, NUL or other control character in it is
// a damaged file (or one edited by hand), named with its column rather than decoded.
inline bool schedule_line_is_text(const std::string& line, std::string* why) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    const auto c = static_cast<unsigned char>(line[i]);
    if (c >= 0x20 && c != 0x7f) continue;
    char byte[8];
    std::snprintf(byte, sizeof byte, "0x%02x", c);
    *why = std::string("has a control character (byte ") + byte + ") at column " +
           std::to_string(i + 1) + " of line 1: a schedule is one line of printable text";
    return false;
  }
  return true;
}

// After the schedule's line only blank lines (spaces, tabs, CRs: a file that travelled
// through Windows) may follow; another line is refused, read no further than its first
// character.
inline bool rest_is_blank(std::istream& in, std::string* why) {
  std::size_t line = 2, read = 0;
  for (char c; in.get(c); ++read) {
    if (c == '\n') {
      ++line;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      *why = "has more than one line (line " + std::to_string(line) +
             " is not blank): a schedule file holds one schedule, on one line";
      return false;
    } else if (read == kMaxScheduleBytes) {
      *why = "has more than 4 MiB of blank lines after its schedule";
      return false;
    }
  }
  return true;
}

// The first line of the file `path`, read up to kMaxScheduleBytes; false when the file
// cannot be opened (*why empty), or the line is longer, is not text or is not the file's
// only one (*why says so).
inline bool read_schedule_line(const std::string& path, std::string* line, std::string* why) {
  why->clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  line->clear();
  for (char c; in.get(c) && c != '\n';) {
    if (line->size() == kMaxScheduleBytes) {
      *why = "has more than " + std::to_string(kMaxScheduleBytes) +
             " bytes (4 MiB) before its first line break, the most weft reads: a schedule is "
             "one shorter line";
      return false;
    }
    *line += c;
  }
  while (!line->empty() && (line->back() == '\r' || line->back() == ' ' || line->back() == '\t'))
    line->pop_back();
  return schedule_line_is_text(*line, why) && rest_is_blank(in, why);
}

inline std::string env_error(const char* name, const std::string& value, const std::string& what) {
  return std::string(name) + "='" + value + "' is not valid: " + what;
}

// WEFT_FIBERS, read by the runtime (runtime/fiber.cpp) as it starts: "" or the error.
inline std::string fibers_error() {
  const char* v = std::getenv("WEFT_FIBERS");
  if (v == nullptr) return "";
  for (const char* ok : {"", "0", "1", "arch_prctl"})
    if (std::strcmp(v, ok) == 0) return "";
  return env_error("WEFT_FIBERS", v,
                   "give 0 (no fibers: the kernel switches threads), 1 (fibers, the default) or "
                   "arch_prctl (fibers that set their thread pointer by system call), or unset it");
}

// WEFT_CHECKPOINT=DIR: the test's search is saved to DIR/<Options::name>.weft-checkpoint
// and resumed from it (a file per test: a binary runs many); WEFT_CHECKPOINT_EVERY: how
// often, in seconds. "" or the error.
inline std::string apply_checkpoint(Options& out) {
  if (const char* v = std::getenv("WEFT_CHECKPOINT_EVERY");
      v && (!parse_seconds(v, &out.checkpoint_every_s) || out.checkpoint_every_s < 0.001 ||
            out.checkpoint_every_s > 86400))
    return env_error("WEFT_CHECKPOINT_EVERY", v,
                     "give seconds, a number from 0.001 to 86400, or unset it");
  const char* dir = std::getenv("WEFT_CHECKPOINT");
  if (dir == nullptr) return "";
  if (*dir == '\0')
    return env_error("WEFT_CHECKPOINT", dir,
                     "give the directory the tests' checkpoints go to, or unset it");
  if (out.name.empty())
    return "WEFT_CHECKPOINT needs Options::name, which names the test's checkpoint file";
  std::string file = out.name;
  for (char& c : file)
    if (c == '/') c = '_';
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  out.checkpoint = (std::filesystem::path(dir) / (file + ".weft-checkpoint")).string();
  return "";
}

}  // namespace detail

// Applies WEFT_STRATEGY, WEFT_EXECUTIONS, WEFT_TIME, WEFT_SEED and WEFT_MINIMIZE to `options`, and
// checks WEFT_FIBERS. Returns "" or one line naming the variable, its value and what it accepts
// (options is then unchanged).
inline std::string apply_environment(Options& options) {
  using detail::env_error;
  Options out = options;
  if (const char* v = std::getenv("WEFT_STRATEGY")) {
    if (*v == '\0')
      return env_error("WEFT_STRATEGY", v, "give a strategy such as random or pct:3, or unset it");
    if (std::string e = check_strategy(v); !e.empty()) return env_error("WEFT_STRATEGY", v, e);
    out.strategy = v;
  }
  auto give = [](const char* accepted) {
    return std::string("give ") + accepted + ", or unset it";
  };
  if (const char* v = std::getenv("WEFT_EXECUTIONS"); v && !detail::parse_whole(v, &out.executions))
    return env_error("WEFT_EXECUTIONS", v, give(detail::kExecutionsAccepted));
  if (const char* v = std::getenv("WEFT_TIME"); v && !detail::parse_seconds(v, &out.time_limit_s))
    return env_error("WEFT_TIME", v, give(detail::kTimeAccepted));
  if (const char* v = std::getenv("WEFT_SEED"); v && !detail::parse_whole(v, &out.seed))
    return env_error("WEFT_SEED", v, give(detail::kSeedAccepted));
  if (const char* v = std::getenv("WEFT_MINIMIZE")) {
    if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0)
      return env_error("WEFT_MINIMIZE", v, give("0 (the schedule as found) or 1 (minimised)"));
    out.minimize = *v == '1';
  }
  if (std::string e = detail::apply_checkpoint(out); !e.empty()) return e;
  if (std::string e = detail::fibers_error(); !e.empty()) return e;
  options = out;
  return "";
}

}  // namespace weft
