#include "flightrec/replay/table_layout.h"

#include <algorithm>

namespace flightrec::replay {
namespace {

const std::string& cell_text(const Table& table, const Row* row, size_t column) {
  return row == nullptr ? table.columns[column].name : row->cells[column].text;
}

size_t fitted_width(const Table& table, size_t index) {
  const Column& column = table.columns[index];
  if (column.max_width <= column.width) return column.width;
  size_t widest = column.name.size();
  for (const Row& row : table.rows) widest = std::max(widest, row.cells[index].text.size());
  return std::clamp(widest, column.width, column.max_width);
}

}  // namespace

TableLayout layout_table(const Table& table, size_t screen_width) {
  TableLayout layout;
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const bool last = c + 1 == table.columns.size();
    if (!last && table.columns[c].hide_below > screen_width) continue;
    layout.columns.push_back(c);
    layout.widths.push_back(last ? 0 : fitted_width(table, c));
  }
  return layout;
}

std::string layout_line(const Table& table, const TableLayout& layout, const Row* row,
                        Overflow overflow) {
  std::string line;
  for (size_t i = 0; i < layout.columns.size(); ++i) {
    const Column& column = table.columns[layout.columns[i]];
    const size_t width = layout.widths[i];
    const bool last = i + 1 == layout.columns.size();
    std::string text = cell_text(table, row, layout.columns[i]);
    if (!last && overflow == Overflow::cut && text.size() > width) text.resize(width);
    const std::string fill(text.size() < width ? width - text.size() : 0, ' ');
    line += column.left ? text + fill : fill + text;
    if (!last) line += ' ';
  }
  return line;
}

}  // namespace flightrec::replay
