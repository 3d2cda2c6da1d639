#pragma once
// `flightrec replay --batch`: the view at one cursor printed without a terminal, as text (what the
// TUI shows, in plain lines) or JSON (for scripts).
#include <cstddef>
#include <cstdint>
#include <string>

#include "flightrec/replay/model.h"

namespace flightrec::replay {

enum class BatchFormat { text, json };

struct BatchView {
  size_t cursor = 0;
  int64_t interval_ns = 0;
  Tab tab = Tab::processes;
  Arrangement arrangement;
};

std::string render_batch(const Model& model, const BatchView& view, BatchFormat format);

// Table rows as aligned text lines, the header line first. Cells wider than their column push
// the rest right rather than lose characters; the last column is never cut.
std::string render_table_text(const Table& table);
// One line of a table for a screen `width` wide: every cell cut to its column.
std::string table_line(const Table& table, const Row* row, size_t width);

}  // namespace flightrec::replay
