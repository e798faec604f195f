#include "report/text_table.hpp"

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>

#include "report/text_width.hpp"

namespace weft {

std::size_t TextTable::least_width(std::size_t indent) const {
  std::vector<std::size_t> width = natural_widths();
  std::size_t total = indent;
  for (std::size_t c = 0; c < width.size(); ++c) {
    const ColumnFit* f = fit_of(c);
    if (f != nullptr && f->droppable) continue;
    total += (f != nullptr ? std::min(width[c], f->least) : width[c]) + (c == 0 ? 0 : 2);
  }
  return total;
}

void TextTable::render(std::string& out, const std::string& indent, std::size_t width) const {
  std::vector<std::size_t> target = natural_widths();
  const std::size_t columns = shrink(target, width, indent.size());
  // The cells as they fit (most as they are: only those shortened are new strings), each
  // with its width, and the columns' widths they make.
  struct Cell {
    std::string_view text;
    std::size_t width;
  };
  std::deque<std::string> shortened;
  std::vector<std::unordered_map<std::string_view, std::string_view>> shortened_as(columns);
  std::vector<std::vector<Cell>> cells(lines_.size());
  std::vector<std::size_t> shown(columns, 0);
  for (std::size_t r = 0; r < lines_.size(); ++r) {
    const std::vector<std::string>& row = lines_[r].cells;
    for (std::size_t c = 0; c < row.size() && c < columns; ++c) {
      Cell cell{row[c], visible_width(row[c])};
      if (cell.width > target[c] && fit_of(c) != nullptr) {
        auto [at, fresh] = shortened_as[c].try_emplace(row[c]);
        if (fresh) at->second = shortened.emplace_back(fitted(row[c], c, target[c]));
        cell.text = at->second;
        cell.width = visible_width(cell.text);
      }
      cells[r].push_back(cell);
      shown[c] = std::max(shown[c], cell.width);
    }
  }
  std::string text;
  for (std::size_t r = 0; r < lines_.size(); ++r) {
    const Line& l = lines_[r];
    text = indent;
    if (l.cells.empty()) {
      for (std::size_t i = 0; i < l.column && i < columns; ++i) text.append(shown[i] + 2, ' ');
      text += l.free;
    } else {
      for (std::size_t c = 0; c < cells[r].size(); ++c) {
        const ColumnFit* f = fit_of(c);
        if (f != nullptr && f->paint)
          text += f->paint(std::string(cells[r][c].text));
        else
          text += cells[r][c].text;
        if (c + 1 < cells[r].size()) text.append(shown[c] - cells[r][c].width + 2, ' ');
      }
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text;
    out += '\n';
  }
}

std::vector<std::size_t> TextTable::natural_widths() const {
  std::vector<std::size_t> width;
  for (const Line& l : lines_) {
    if (l.cells.size() > width.size()) width.resize(l.cells.size(), 0);
    for (std::size_t i = 0; i < l.cells.size(); ++i)
      width[i] = std::max(width[i], visible_width(l.cells[i]));
  }
  return width;
}

const ColumnFit* TextTable::fit_of(std::size_t column) const {
  for (const auto& [c, f] : fits_)
    if (c == column) return &f;
  return nullptr;
}

// Narrows `width` until the rows fit: the columns that give way, in their order, each to
// its least, and left out if that is not enough and it may be. Returns how many columns
// stay (the dropped ones are the last). What fits in a column may be narrower than its
// width (a path loses whole directories) or wider (it keeps its file name): the total
// counts what the cells take.
std::size_t TextTable::shrink(std::vector<std::size_t>& width, std::size_t limit,
                              std::size_t indent) const {
  std::size_t columns = width.size();
  std::size_t total = indent;
  for (std::size_t c = 0; c < columns; ++c) total += width[c] + (c == 0 ? 0 : 2);
  if (limit == 0) return columns;
  std::vector<std::pair<std::size_t, ColumnFit>> order = fits_;
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.second.order < b.second.order; });
  for (const auto& [c, f] : order) {
    if (total <= limit || c >= columns) continue;
    const std::size_t before = width[c];
    width[c] -= std::min(total - limit, width[c] - std::min(width[c], f.least));
    const std::size_t taken = taken_width(c, width[c]);
    total = total - before + taken;
    if (total > limit && f.droppable && c + 1 == columns && c > 0) {
      total -= taken + 2;
      columns = c;
    }
  }
  return columns;
}

// The width column `c`'s cells take once fitted to `width`.
std::size_t TextTable::taken_width(std::size_t c, std::size_t width) const {
  std::size_t most = 0;
  // A cell too wide is fitted once: a long trace's repeat (a loop's source line).
  std::unordered_map<std::string_view, std::size_t> fitted_width;
  for (const Line& l : lines_) {
    if (c >= l.cells.size()) continue;
    const std::string& cell = l.cells[c];
    std::size_t taken = visible_width(cell);  // most cells fit as they are
    if (taken > width) {
      auto [at, fresh] = fitted_width.try_emplace(cell, 0);
      if (fresh) at->second = visible_width(fitted(cell, c, width));
      taken = at->second;
    }
    most = std::max(most, taken);
  }
  return most;
}

std::string TextTable::fitted(const std::string& cell, std::size_t column,
                              std::size_t width) const {
  const ColumnFit* f = fit_of(column);
  if (f == nullptr || visible_width(cell) <= width) return cell;
  switch (f->give) {
    case ColumnFit::Give::kName: return shorten_name(cell, width);
    case ColumnFit::Give::kPath: return shorten_path(cell, width);
    case ColumnFit::Give::kClip: break;
  }
  return clip(cell, width);
}

}  // namespace weft
