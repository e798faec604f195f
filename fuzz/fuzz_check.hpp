#pragma once
// The fuzz targets' assertion: on in every build type (NDEBUG must not turn an invariant
// off), and it says which invariant broke, since libFuzzer shows only the abort.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#define FUZZ_CHECK(cond, what)                                                       \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      std::fprintf(stderr, "invariant broken at %s:%d: %s\n  (%s)\n", __FILE__,      \
                   __LINE__, std::string(what).c_str(), #cond);                      \
      std::abort();                                                                  \
    }                                                                                \
  } while (0)

namespace weft::fuzz {

// An error message is one line (no line break of any kind in it).
inline bool one_line(std::string_view text) {
  return text.find('\n') == std::string_view::npos && text.find('\r') == std::string_view::npos;
}

}  // namespace weft::fuzz
