#include "report/json_line.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace weft {

void JsonLine::string(std::string_view s) {
  const bool plain = std::all_of(
      s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!plain) {
    *out_ += nlohmann::json(std::string(s))
                 .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  *out_ += '"';
  *out_ += s;
  *out_ += '"';
}

}  // namespace weft
