#pragma once
// Text that fits a terminal's width (issue #26): the width of what a terminal shows, long
// C++ names and paths shortened from the middle, lines wrapped at spaces.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace weft {

// The width text reports use when stdout is not a terminal.
inline constexpr std::size_t kDefaultTextWidth = 100;

// Characters a terminal shows: colour escapes ("\x1b[...m") take no room, UTF-8 sequences
// one column each.
std::size_t visible_width(std::string_view s);

// At most `max` characters (never fewer than it needs for "..."), cut at the end.
std::string clip(const std::string& s, std::size_t max);

// A demangled C++ name in at most `max` characters where it can be: first its lambdas'
// and templates' parameter lists are elided ("{lambda(int)#1}" -> "{lambda#1}",
// "std::vector<int, ...>" -> "std::vector<...>"), then its functions' ("f(int)" ->
// "f(...)"), then its middle, keeping the tail (the function itself).
std::string shorten_name(const std::string& name, std::size_t max);

// A path ("dir/file.c:12") in at most `max` characters where it can be: its leading
// directories give way to ".../"; the file name and line always stay.
std::string shorten_path(const std::string& path, std::size_t max);

// `line` broken at spaces into lines of at most `width` columns (a word longer than that is
// broken where it must), each continuation indented by `hang` (by default two more than
// the line, at most half the width); no final newline. A width of 0: the line as it is.
std::string wrap_line(const std::string& line, std::size_t width,
                      std::size_t hang = std::string::npos);

// Every line of `text` (lines end with '\n') wrapped to `width`.
std::string fit_lines(const std::string& text, std::size_t width);

// A coverage summary as lines: its per-worker or per-shard details ("... [worker 0: dfs:
// ...] [worker 1: ...]; not complete") each on its own line after the rest.
std::vector<std::string> coverage_lines(const std::string& summary);

}  // namespace weft
