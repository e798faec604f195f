#pragma once
// One JSON object written on one line, field by field, as nlohmann's compact dump writes
// it: a long trace's steps (100,000 of them, in the JSON result, the trace events and the
// HTML page's script) built as nlohmann documents cost most of a report's time. Strings
// that need escaping, or are not plain ASCII, go through nlohmann's serializer (invalid
// UTF-8 replaced), so the text is the same as a document's dump.
#include <charconv>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>

namespace weft {

class JsonLine {
 public:
  explicit JsonLine(std::string* out) : out_(out) { *out_ += '{'; }
  // The object is closed when the last JsonLine writing it goes.
  ~JsonLine() {
    if (out_ != nullptr) *out_ += '}';
  }
  JsonLine(JsonLine&& other) noexcept : out_(other.out_), first_(other.first_) {
    other.out_ = nullptr;
  }
  JsonLine(const JsonLine&) = delete;
  JsonLine& operator=(const JsonLine&) = delete;
  JsonLine& operator=(JsonLine&&) = delete;

  JsonLine& field(std::string_view key, std::string_view value) {
    name(key);
    string(value);
    return *this;
  }
  JsonLine& field(std::string_view key, const char* value) {
    return field(key, std::string_view(value));
  }
  JsonLine& field(std::string_view key, const std::string& value) {
    return field(key, std::string_view(value));
  }
  JsonLine& field(std::string_view key, bool value) {
    name(key);
    *out_ += value ? "true" : "false";
    return *this;
  }
  template <std::integral T>
  requires(!std::same_as<T, bool>) JsonLine& field(std::string_view key, T value) {
    name(key);
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out_->append(digits, end);
    return *this;
  }
  // A value already JSON (a nested object written by another JsonLine, say).
  JsonLine& raw(std::string_view key, std::string_view json) {
    name(key);
    *out_ += json;
    return *this;
  }

 private:
  void name(std::string_view key) {
    if (!first_) *out_ += ',';
    first_ = false;
    string(key);
    *out_ += ':';
  }
  void string(std::string_view s);

  std::string* out_;
  bool first_ = true;
};

}  // namespace weft
