#include "text_table.h"

#include <algorithm>
#include <stdexcept>

namespace flightrec::snapshot::detail {
namespace {

size_t display_width(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;  // not a continuation byte
  }));
}

}  // namespace

void TextTable::add_row(std::vector<std::string> cells) {
  if (cells.size() != columns_.size()) {
    throw std::invalid_argument("TextTable: row of " + std::to_string(cells.size()) +
                                " cells for " + std::to_string(columns_.size()) + " columns");
  }
  rows_.push_back(std::move(cells));
}

void TextTable::render(std::string& out, const std::string& indent) const {
  std::vector<size_t> widths(columns_.size(), 0);
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  for (const auto& row : rows_) {
    out += indent;
    for (size_t i = 0; i < row.size(); ++i) {
      const bool last = i + 1 == row.size();
      const size_t padding = widths[i] - display_width(row[i]);
      if (columns_[i] == Align::right) out.append(padding, ' ');
      out += row[i];
      if (last) break;
      if (columns_[i] == Align::left) out.append(padding, ' ');
      out += "  ";
    }
    out += '\n';
  }
}

}  // namespace flightrec::snapshot::detail
