#include "tui.h"

#include <curses.h>

#include <chrono>
#include <clocale>
#include <cstdlib>
#include <optional>
#include <string>

#include "flightrec/replay/escape_keys.h"
#include "flightrec/replay/screen.h"

namespace flightrec::replay::tui {
namespace {

// How long the rest of an escape sequence may take to arrive (ncurses' own ESCDELAY is 25 ms).
constexpr int kSequenceGapMs = 25;
// Longer than any sequence a key sends: past it the bytes are not a key, and are dropped.
constexpr size_t kMaxSequenceBytes = 16;

enum Pair : short { kBarPair = 1, kHeaderPair = 2, kSelectedPair = 3, kKeyBarPair = 4 };

// Ends curses mode however run() is left, so the shell is never left in raw mode.
class Curses {
 public:
  Curses() {
    std::setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    // NO_COLOR (https://no-color.org): any value turns colour off; vt100 has none anyway.
    colour_ = has_colors() && std::getenv("NO_COLOR") == nullptr;
    if (colour_) {
      start_color();
      use_default_colors();
      init_pair(kBarPair, COLOR_GREEN, -1);
      init_pair(kHeaderPair, COLOR_BLACK, COLOR_GREEN);
      init_pair(kSelectedPair, COLOR_BLACK, COLOR_CYAN);
      init_pair(kKeyBarPair, COLOR_BLACK, COLOR_CYAN);
    }
  }
  ~Curses() { endwin(); }
  Curses(const Curses&) = delete;
  Curses& operator=(const Curses&) = delete;

  [[nodiscard]] bool colour() const noexcept { return colour_; }

 private:
  bool colour_ = false;
};

attr_t style_attributes(LineStyle style, bool colour) {
  switch (style) {
    case LineStyle::table_header:
      return colour ? COLOR_PAIR(kHeaderPair) : A_REVERSE;
    case LineStyle::selected:
      return colour ? COLOR_PAIR(kSelectedPair) | A_BOLD : A_REVERSE | A_BOLD;
    case LineStyle::key_bar:
    case LineStyle::prompt:
      return colour ? COLOR_PAIR(kKeyBarPair) : A_REVERSE;
    case LineStyle::tabs:
      return A_BOLD;
    case LineStyle::normal:
      break;
  }
  return A_NORMAL;
}

void draw(const std::vector<ScreenLine>& lines, bool colour) {
  erase();
  for (size_t y = 0; y < lines.size(); ++y) {
    const ScreenLine& line = lines[y];
    const attr_t attributes = style_attributes(line.style, colour);
    attron(attributes);
    mvaddnstr(static_cast<int>(y), 0, line.text.c_str(), static_cast<int>(line.text.size()));
    attroff(attributes);
    if (colour) {
      for (const Span& bar : line.bars) {
        attron(COLOR_PAIR(kBarPair));
        mvaddnstr(static_cast<int>(y), static_cast<int>(bar.begin), line.text.c_str() + bar.begin,
                  static_cast<int>(bar.end - bar.begin));
        attroff(COLOR_PAIR(kBarPair));
      }
    }
  }
  refresh();
}

int translate(int key) {
  switch (key) {
    case KEY_F(1):
      return keys::kF1;
    case KEY_F(3):
      return keys::kF3;
    case KEY_F(4):
      return keys::kF4;
    case KEY_F(5):
      return keys::kF5;
    case KEY_F(6):
      return keys::kF6;
    case KEY_F(10):
      return keys::kF10;
    case KEY_LEFT:
      return keys::kLeft;
    case KEY_RIGHT:
      return keys::kRight;
    case KEY_UP:
      return keys::kUp;
    case KEY_DOWN:
      return keys::kDown;
    case KEY_PPAGE:
      return keys::kPageUp;
    case KEY_NPAGE:
      return keys::kPageDown;
    case KEY_HOME:
      return keys::kHome;
    case KEY_END:
      return keys::kEnd;
    case KEY_BTAB:
      return keys::kBackTab;
    case KEY_ENTER:
    case '\r':
      return keys::kEnter;
    case KEY_BACKSPACE:
    case 8:
      return keys::kBackspace;
    default:
      return key;
  }
}

// After an ESC: the rest of a sequence ncurses did not decode (escape_keys.h), read with a short
// timeout. A lone ESC is Escape; an unknown or cut-short sequence is dropped whole, never taken
// as the keys its characters spell.
std::optional<int> read_escape_sequence() {
  timeout(kSequenceGapMs);
  std::string body;
  do {
    const int next = getch();
    if (next == ERR) {
      if (body.empty()) return keys::kEscape;
      return std::nullopt;
    }
    if (next < 0 || next > 0xff) return std::nullopt;  // a key ncurses decoded: not ours
    body += static_cast<char>(next);
  } while (!escape_sequence_complete(body) && body.size() < kMaxSequenceBytes);
  return decode_escape_sequence(body);
}

}  // namespace

int run(Session& session) {
  const Curses curses;
  using Clock = std::chrono::steady_clock;
  auto last = Clock::now();
  while (!session.quit()) {
    const auto width = static_cast<size_t>(std::max(COLS, 1));
    const auto height = static_cast<size_t>(std::max(LINES, 1));
    session.set_page_rows(table_rows(session, height));
    draw(render_screen(session, width, height), curses.colour());
    // Playing needs a clock tick; paused, the screen only changes on a key.
    timeout(session.playing() ? 50 : -1);
    const int key = getch();
    const auto now = Clock::now();
    if (session.playing()) {
      session.advance(std::chrono::duration_cast<std::chrono::nanoseconds>(now - last).count());
    }
    last = now;
    if (key == ERR || key == KEY_RESIZE) continue;  // KEY_RESIZE: LINES/COLS are already new
    if (key == keys::kEscape) {
      if (const auto decoded = read_escape_sequence()) session.handle_key(*decoded);
      continue;
    }
    session.handle_key(translate(key));
  }
  return 0;
}

}  // namespace flightrec::replay::tui
