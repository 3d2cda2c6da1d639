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
  int64_t grow_span_ns = kDefaultGrowSpanNs;  // what RGROW covers
};

std::string render_batch(const Model& model, const BatchView& view, BatchFormat format);

// Table rows as aligned text lines, the header line first, every column (no width limit). Cells
// wider than their column push the rest right rather than lose characters.
std::string render_table_text(const Table& table);

}  // namespace flightrec::replay
