#include "cli/terminal_width.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "report/text_width.hpp"

namespace weft::cli {

std::size_t terminal_width() {
  // Narrower than this, a report's step numbers and file names alone would not fit.
  constexpr std::size_t kLeast = 40, kMost = 10000;
  if (const char* c = std::getenv("COLUMNS"); c != nullptr && *c != '\0') {
    const std::string text = c;
    if (text.size() <= 5 && text.find_first_not_of("0123456789") == std::string::npos) {
      const std::size_t n = std::stoul(text);
      if (n != 0) return std::min(std::max(n, kLeast), kMost);
    }
  }
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col != 0)
    return std::max<std::size_t>(w.ws_col, kLeast);
  return kDefaultTextWidth;
}

}  // namespace weft::cli
