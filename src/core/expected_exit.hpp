#pragma once
// --expect-exit N|any: the exit status a program returns by design. An execution that
// exits with another status is an `exit-code` bug; with `any`, no status is (a `void
// main()`'s garbage, a status that encodes a result). Signals and weft's own reports are
// failures whatever is declared.
#include <charconv>
#include <string>

namespace weft {

struct ExpectedExit {
  static constexpr const char* kAccepted = "an exit status from 0 to 255, or 'any'";

  bool any = false;
  int status = 0;

  // "" with *out set, or the one-line error naming the text and what is accepted.
  static std::string parse(const std::string& text, ExpectedExit* out) {
    if (text == "any") {
      *out = ExpectedExit{true, 0};
      return "";
    }
    int v = -1;
    const char* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, v);
    if (text.empty() || text[0] == '+' || text[0] == '-' || r.ec != std::errc{} || r.ptr != end ||
        v < 0 || v > 255 || (text.size() > 1 && text[0] == '0'))
      return "'" + text + "' is not valid: give " + kAccepted;
    *out = ExpectedExit{false, v};
    return "";
  }

  bool accepts(int exit_status) const { return any || exit_status == status; }
  bool is_default() const { return !any && status == 0; }
  std::string text() const { return any ? "any" : std::to_string(status); }
};

}  // namespace weft
