#pragma once
// A text value kept on one line of a file (checkpoints, weft run's options file): a
// backslash becomes "\\" and a newline "\n".
#include <string>
#include <string_view>

namespace weft {

std::string escape_line(std::string_view v);
// escape_line's inverse; false: a backslash followed by anything else, or by nothing.
bool unescape_line(std::string_view v, std::string* out);

}  // namespace weft
