#include "report/text_width.hpp"

#include <algorithm>

namespace weft {
namespace {

bool continuation_byte(char c) { return (static_cast<unsigned char>(c) & 0xc0) == 0x80; }

// The byte offset in `s` after `columns` visible characters (escapes ride along).
std::size_t offset_of_column(std::string_view s, std::size_t columns) {
  std::size_t i = 0, n = 0;
  while (i < s.size()) {
    if (s[i] == '\x1b') {
      while (i < s.size() && s[i] != 'm') ++i;
      ++i;
      continue;
    }
    if (!continuation_byte(s[i])) {
      if (n == columns) return i;
      ++n;
    }
    ++i;
  }
  return s.size();
}

// `s` with the inside of every outermost `open`...`close` pair replaced by `with`, for
// pairs whose opening follows `after` when it is given ("lambda").
std::string elide_lists(const std::string& s, char open, char close, const std::string& with,
                        std::string_view after = {}) {
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (depth == 0) {
      out += c;
      // "operator<", "operator<<", "operator()" are names, not lists.
      const std::string_view before = std::string_view(out).substr(0, out.size() - 1);
      const bool operator_name = before.ends_with("operator") || before.ends_with("operator<");
      const bool wanted =
          after.empty() ||
          (out.size() > after.size() &&
           std::string_view(out).substr(out.size() - 1 - after.size(), after.size()) == after);
      if (c == open && !operator_name && wanted &&
          !(i + 1 < s.size() && s[i + 1] == close && with.empty())) {
        depth = 1;
        out += with;
      }
    } else if (c == open) {
      ++depth;
    } else if (c == close && --depth == 0) {
      out += c;
    }
  }
  return depth == 0 ? out : s;  // unbalanced: not a list after all
}

}  // namespace

std::size_t visible_width(std::string_view s) {
  // Runs between escape sequences counted whole (a long trace's report measures millions
  // of cells; the count vectorises).
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t escape = std::min(s.find('\x1b', i), s.size());
    n += static_cast<std::size_t>(std::count_if(s.begin() + static_cast<std::ptrdiff_t>(i),
                                                s.begin() + static_cast<std::ptrdiff_t>(escape),
                                                [](char c) { return !continuation_byte(c); }));
    if (escape == s.size()) break;
    i = std::min(s.find('m', escape), s.size() - 1) + 1;
  }
  return n;
}

std::string clip(const std::string& s, std::size_t max) {
  max = std::max<std::size_t>(max, 4);
  if (visible_width(s) <= max) return s;
  return s.substr(0, offset_of_column(s, max - 3)) + "...";
}

std::string shorten_name(const std::string& name, std::size_t max) {
  if (name.size() <= max) return name;
  std::string s = elide_lists(name, '(', ')', "", "lambda");  // {lambda(int)#1} -> {lambda()#1}
  if (s.size() <= max) return s;
  s = elide_lists(s, '<', '>', "...");
  if (s.size() <= max) return s;
  s = elide_lists(s, '(', ')', "...");
  if (s.size() <= max) return s;
  // Its leading qualifiers ("weft::detail::") give way, one by one.
  int depth = 0;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    depth += s[i] == '<' || s[i] == '(' ? 1 : s[i] == '>' || s[i] == ')' ? -1 : 0;
    if (depth == 0 && s.compare(i, 2, "::") == 0 && s.size() - i + 3 <= max)
      return "..." + s.substr(i);
  }
  max = std::max<std::size_t>(max, 12);
  const std::size_t tail = (max - 3) * 2 / 3, head = max - 3 - tail;
  return s.substr(0, head) + "..." + s.substr(s.size() - tail);
}

std::string shorten_path(const std::string& path, std::size_t max) {
  if (path.size() <= max) return path;
  const std::size_t name = path.rfind('/');
  if (name == std::string::npos) return path;
  // Whole directories from the end, as many as fit after ".../".
  std::size_t from = name;
  while (from > 0) {
    const std::size_t prev = path.rfind('/', from - 1);
    if (prev == std::string::npos || path.size() - prev + 3 > max) break;
    from = prev;
  }
  return "..." + path.substr(from);
}

std::string wrap_line(const std::string& line, std::size_t width, std::size_t hang) {
  if (width == 0 || visible_width(line) <= width) return line;
  const std::size_t lead = line.find_first_not_of(' ');
  if (lead == std::string::npos) return std::string();
  const std::string indent(std::min(hang != std::string::npos ? hang : lead + 2, width / 2), ' ');
  std::string out, current = line.substr(0, lead);
  bool fresh = true;  // nothing but indentation on the current line
  std::size_t at = lead;
  while (at < line.size()) {
    // A word and the spaces before it, kept as they were where the line does not break.
    const std::size_t word_at = line.find_first_not_of(' ', at);
    if (word_at == std::string::npos) break;
    const std::string gap = line.substr(at, word_at - at);
    std::size_t end = line.find(' ', word_at);
    if (end == std::string::npos) end = line.size();
    std::string word = line.substr(word_at, end - word_at);
    at = end;
    if (!fresh && visible_width(current) + gap.size() + visible_width(word) > width) {
      out += current + "\n";
      current = indent;
      fresh = true;
    }
    if (!fresh) current += gap;
    // A word longer than a whole line is broken where the line ends.
    while (visible_width(current) + visible_width(word) > width) {
      const std::size_t room = width > visible_width(current) ? width - visible_width(current) : 1;
      const std::size_t cut = offset_of_column(word, room);
      out += current + word.substr(0, cut) + "\n";
      word.erase(0, cut);
      current = indent;
    }
    current += word;
    fresh = false;
  }
  return out + current;
}

std::string fit_lines(const std::string& text, std::size_t width) {
  if (width == 0) return text;
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    const bool ended = end != std::string::npos;
    if (!ended) end = text.size();
    out += wrap_line(text.substr(at, end - at), width);
    if (ended) out += '\n';
    at = end + 1;
  }
  return out;
}

std::vector<std::string> coverage_lines(const std::string& summary) {
  std::string rest;
  std::vector<std::string> details;
  for (std::size_t i = 0; i < summary.size(); ++i) {
    if (summary.compare(i, 2, " [") == 0) {
      int depth = 0;
      std::size_t j = i + 1;
      for (; j < summary.size(); ++j) {
        depth += summary[j] == '[' ? 1 : summary[j] == ']' ? -1 : 0;
        if (depth == 0) break;
      }
      if (j < summary.size()) {
        details.push_back(summary.substr(i + 2, j - i - 2));
        i = j;
        continue;
      }
    }
    rest += summary[i];
  }
  std::vector<std::string> lines = {rest};
  for (const std::string& d : details) lines.push_back("  " + d);
  return lines;
}

}  // namespace weft
