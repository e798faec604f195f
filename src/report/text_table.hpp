#pragma once
// The text report's tables (interleaving, race, blocked threads, heap objects): rows of
// cells in aligned columns, free lines (folds) starting at a column, and columns that give
// way, in an order, when the rows are wider than the report may be.
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace weft {

using Painter = std::function<std::string(const std::string&)>;

// How a column gives way when its rows are wider than the report may be.
struct ColumnFit {
  enum class Give { kClip, kName, kPath } give = Give::kClip;  // see text_width.hpp
  std::size_t least = 0;                                       // the width it shrinks to at most
  bool droppable = false;  // left out when shrunk it is still too wide (if it is the last)
  int order = 0;           // which column gives way first: the lowest
  Painter paint;           // colours its cells once they fit (they are given plain)
};

class TextTable {
 public:
  void row(std::vector<std::string> cells) { lines_.push_back({std::move(cells), {}, 0}); }
  void line(std::string text, std::size_t column = 0) {
    lines_.push_back({{}, std::move(text), column});
  }
  void fit(std::size_t column, ColumnFit f) { fits_.emplace_back(column, std::move(f)); }

  // The least width its rows can take: every column that gives way at its least, the
  // droppable ones dropped.
  std::size_t least_width(std::size_t indent) const;

  // Rows of at most `width` columns where the columns can give way (0: no limit), each
  // line after `indent`, without trailing spaces.
  void render(std::string& out, const std::string& indent, std::size_t width = 0) const;

 private:
  struct Line {
    std::vector<std::string> cells;
    std::string free;
    std::size_t column;
  };

  std::vector<std::size_t> natural_widths() const;
  const ColumnFit* fit_of(std::size_t column) const;
  std::size_t shrink(std::vector<std::size_t>& width, std::size_t limit, std::size_t indent) const;
  std::size_t taken_width(std::size_t c, std::size_t width) const;
  std::string fitted(const std::string& cell, std::size_t column, std::size_t width) const;

  std::vector<Line> lines_;
  std::vector<std::pair<std::size_t, ColumnFit>> fits_;
};

}  // namespace weft
