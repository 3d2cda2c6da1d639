#pragma once
// A table laid out in columns of text: for a screen of a given width (narrow screens leave out
// the columns marked hide_below, address columns widen to what they hold) or, in batch output,
// with no width limit.
#include <cstddef>
#include <string>
#include <vector>

#include "flightrec/replay/table.h"

namespace flightrec::replay {

inline constexpr size_t kUnlimitedWidth = static_cast<size_t>(-1);

struct TableLayout {
  std::vector<size_t> columns;  // indexes into Table::columns, in order
  std::vector<size_t> widths;   // per shown column; the last one's is 0 (it takes what is left)
};

TableLayout layout_table(const Table& table, size_t screen_width);

// How a cell wider than its column is printed.
enum class Overflow {
  cut,   // cut to the column, so the columns below line up (screens)
  push,  // whole, pushing the rest of the line right (batch text: no character is lost)
};

// One line of the laid-out table: the header line for `row` == nullptr. Not cut to any width:
// the screen shows a window of it (its horizontal scroll).
std::string layout_line(const Table& table, const TableLayout& layout, const Row* row,
                        Overflow overflow);

}  // namespace flightrec::replay
