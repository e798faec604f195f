#include "core/line_escape.hpp"

namespace weft {

std::string escape_line(std::string_view v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

bool unescape_line(std::string_view v, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i] != '\\') {
      *out += v[i];
      continue;
    }
    if (++i == v.size()) return false;
    if (v[i] == '\\')
      *out += '\\';
    else if (v[i] == 'n')
      *out += '\n';
    else
      return false;
  }
  return true;
}

}  // namespace weft
