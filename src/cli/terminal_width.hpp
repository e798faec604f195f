#pragma once
// How wide the text weft prints may be: COLUMNS when set to a number, else the terminal's
// (TIOCGWINSZ on stdout), else report/'s default (100) when stdout is not a terminal.
#include <cstddef>

namespace weft::cli {

// Help and `weft strategies` never take more than this, whatever the terminal.
inline constexpr std::size_t kHelpWidth = 100;

std::size_t terminal_width();

}  // namespace weft::cli
