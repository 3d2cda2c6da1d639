#pragma once
// The interactive view laid out as lines of text for a terminal of a given size, htop style:
// header (CPU bars, Mem/Swp bars with their numbers, load, pressure, disk and network rates),
// the timeline strip, tabs, the table and a key bar. Pure, so the layout is unit-tested; styles
// only add emphasis, every meaning is in the text (TERM=vt100, NO_COLOR).
#include <cstddef>
#include <string>
#include <vector>

#include "flightrec/replay/session.h"

namespace flightrec::replay {

enum class LineStyle { normal, tabs, table_header, selected, key_bar, prompt };

struct Span {
  size_t begin = 0;
  size_t end = 0;
};

struct ScreenLine {
  std::string text;  // at most `width` characters
  LineStyle style = LineStyle::normal;
  std::vector<Span> bars;  // the '|' runs of meters, coloured when colour is on
};

// The rows the table gets at this height (the session needs it for paging).
size_t table_rows(const Session& session, size_t height);
std::vector<ScreenLine> render_screen(const Session& session, size_t width, size_t height);

}  // namespace flightrec::replay
