#pragma once
// Columns of text padded to their widest cell, for the text snapshot. Widths count UTF-8 code
// points, so callers pass text already made printable.
#include <string>
#include <vector>

namespace flightrec::snapshot::detail {

enum class Align { left, right };

class TextTable {
 public:
  explicit TextTable(std::vector<Align> columns) : columns_(std::move(columns)) {}

  // A row has one cell per column; throws std::invalid_argument otherwise.
  void add_row(std::vector<std::string> cells);

  // Appends the rows, each prefixed by `indent`, columns two spaces apart. The last column is
  // never padded, so long command lines do not drag trailing spaces along.
  void render(std::string& out, const std::string& indent) const;

 private:
  std::vector<Align> columns_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace flightrec::snapshot::detail
