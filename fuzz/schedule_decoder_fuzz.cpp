// The schedule decoder on any text, as a schedule file holds it (weft replay, WEFT_REPLAY,
// WEFT_SCHEDULE_FILE: read_schedule_line, then decode_schedule).
//
// Invariants:
//  - a decoded schedule never holds more decisions than the cap it was decoded with (a
//    short text must not fill memory: issue 27, defect 1);
//  - a decoded schedule encodes to a text that decodes to the same schedule, and encodes
//    to that same text again (the canonical form is stable);
//  - a refusal is one line;
//  - weft3 (recorded options) as weft1 and weft2: its options decode back as they were.
// The check is FNV-1a, which mutations break: each input is decoded as given and again
// with its last field replaced by the right check, so that mutated bodies get decoded.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include "core/schedule.hpp"
#include "fuzz/fuzz_check.hpp"
#include "weft/environment.hpp"

namespace {

using weft::Schedule;

// The first line as read_schedule_line reads it from a file (an in-memory file, so that
// no execution touches the disk); nullopt when it refuses the file (a control character,
// a second line), which it must say in one line.
std::optional<std::string> first_line(std::string_view data) {
  static const int fd = memfd_create("weft-fuzz-schedule", 0);
  static const std::string path = "/proc/self/fd/" + std::to_string(fd);
  FUZZ_CHECK(fd >= 0 && ftruncate(fd, 0) == 0, "memfd");
  FUZZ_CHECK(pwrite(fd, data.data(), data.size(), 0) == static_cast<ssize_t>(data.size()), "pwrite");
  std::string line, why;
  if (!weft::detail::read_schedule_line(path, &line, &why)) {
    FUZZ_CHECK(!why.empty() && weft::fuzz::one_line(why), "a refused file, in one line: " + why);
    return std::nullopt;
  }
  FUZZ_CHECK(line.find('\n') == std::string::npos, "a line holds no line break");
  FUZZ_CHECK(line.size() <= data.size() && data.substr(0, line.size()) == line,
             "the line is the file's beginning");
  return line;
}

void check_decode(std::string_view text, std::uint64_t cap) {
  Schedule s;
  std::string error;
  if (!weft::decode_schedule(text, &s, &error, cap)) {
    FUZZ_CHECK(!error.empty(), "a refusal says why");
    FUZZ_CHECK(weft::fuzz::one_line(error), "a refusal is one line: " + error);
    return;
  }
  FUZZ_CHECK(s.decisions.size() <= cap,
             "decoded " + std::to_string(s.decisions.size()) + " decisions, more than the cap " +
                 std::to_string(cap));
  const std::string again = weft::encode_schedule(s);
  Schedule back;
  FUZZ_CHECK(weft::decode_schedule(again, &back, &error, cap),
             "its own encoding '" + again + "' decodes: " + error);
  FUZZ_CHECK(back == s, "the encoding '" + again + "' decodes to the same schedule");
  FUZZ_CHECK(weft::encode_schedule(back) == again, "the encoding is stable");
}

// `text` with its last dot-separated field replaced by the check of what precedes it.
std::string with_right_check(std::string_view text) {
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ')) text.remove_suffix(1);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  const std::size_t dot = text.rfind('.');
  if (dot == std::string_view::npos) return std::string(text);
  const std::string_view body = text.substr(0, dot);
  char check[9];
  std::snprintf(check, sizeof check, "%08x", static_cast<std::uint32_t>(weft::fnv1a64(body)));
  return std::string(body) + "." + check;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::optional<std::string> line = first_line(input);
  // The decoder sees the file's first line whatever the reader thinks of the rest.
  const std::string_view raw = input.substr(0, input.find('\n'));
  const std::uint64_t bound = weft::recorded_step_bound(raw, 1);
  FUZZ_CHECK(bound >= 1 && bound <= 50'000'000, "a recorded step bound is one --steps takes");
  // The caps of the default step bound (what weft replay uses) and of a small one.
  for (std::uint64_t cap : {weft::max_decisions_for(weft::kDefaultMaxSteps), weft::max_decisions_for(10)}) {
    for (std::string_view text : {raw, line ? std::string_view(*line) : raw}) {
      check_decode(text, cap);
      check_decode(with_right_check(text), cap);
    }
  }
  return 0;
}
