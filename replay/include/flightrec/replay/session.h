#pragma once
// The interactive view's state and what each key does to it, without a terminal: the ncurses
// front end only turns key presses into handle_key() calls and prints render_screen()'s lines, so
// every key is unit-tested here.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/replay/keymap.h"
#include "flightrec/replay/model.h"

namespace flightrec::replay {

// Keys other than printable characters (which are their own codes).
namespace keys {
inline constexpr int kEnter = '\n';
inline constexpr int kTab = '\t';
inline constexpr int kEscape = 27;
inline constexpr int kBackspace = 127;
inline constexpr int kF1 = 0x1001;
inline constexpr int kF3 = 0x1003;
inline constexpr int kF4 = 0x1004;
inline constexpr int kF5 = 0x1005;
inline constexpr int kF6 = 0x1006;
inline constexpr int kF10 = 0x100a;
inline constexpr int kUp = 0x1101;
inline constexpr int kDown = 0x1102;
inline constexpr int kPageUp = 0x1103;
inline constexpr int kPageDown = 0x1104;
inline constexpr int kHome = 0x1105;
inline constexpr int kEnd = 0x1106;
inline constexpr int kBackTab = 0x1107;
inline constexpr int kLeft = 0x1108;
inline constexpr int kRight = 0x1109;
}  // namespace keys

// The rate intervals `r` cycles through; 0 is one sample.
inline constexpr std::array<int64_t, 4> kIntervals{0, 10'000'000, 100'000'000, 1'000'000'000};
// The spans `w` cycles RSS growth (RGROW) through; kWholeRecording is all of it up to the cursor.
inline constexpr std::array<int64_t, 4> kGrowSpans{1'000'000'000, kDefaultGrowSpanNs,
                                                   60'000'000'000, kWholeRecording};
// Left and Right scroll the table this many characters, as htop's do.
inline constexpr size_t kSidewaysStep = 20;
// Playback speeds `+` and `-` step through, as multiples of real time.
inline constexpr std::array<double, 9> kSpeeds{0.001, 0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10};

// help and details are whole-screen panes that any key closes: the keys, and what the triggers'
// labels leave out (Trigger::detail_lines: an alert's labels and annotations, an OOM victim, the
// incident's kind).
enum class Mode { normal, help, details, search, filter, go_to };

class Session {
 public:
  Session(const Model& model, size_t cursor, Tab tab, int64_t interval_ns);

  void handle_key(int key);
  // Moves the cursor by `elapsed_ns` of real time times the speed while playing; true if it moved.
  bool advance(int64_t elapsed_ns);
  // The number of table rows the screen shows (for page keys and scrolling).
  void set_page_rows(size_t rows);
  // The screen's width: what the table is laid out for and Left/Right scroll across.
  void set_page_width(size_t width);
  // A line for the message bar until the next key (e.g. that --at was clamped).
  void show_message(std::string message);

  // For an OOM kill: selects its victim's row in the Processes tab (clearing a filter that hid
  // it) and says so in the message bar, or says why it cannot. Nothing for other triggers.
  void select_victim(const Trigger& trigger);

  void set_sort(std::optional<size_t> column, bool reverse);
  void set_filter(std::string filter);
  void set_tree(bool tree);
  // What RGROW covers: a span up to the cursor (kWholeRecording: from the first frame).
  void set_grow_span(int64_t span_ns);
  // Narrows the Processes tab to one container's processes; nothing: all of them.
  void set_container(std::optional<ContainerScope> container);

  [[nodiscard]] const Model& model() const noexcept { return model_; }
  [[nodiscard]] size_t cursor() const noexcept { return cursor_; }
  [[nodiscard]] Tab tab() const noexcept { return tab_; }
  [[nodiscard]] int64_t interval_ns() const noexcept { return interval_ns_; }
  [[nodiscard]] int64_t grow_span_ns() const noexcept { return grow_span_ns_; }
  [[nodiscard]] Mode mode() const noexcept { return mode_; }
  [[nodiscard]] bool playing() const noexcept { return playing_; }
  [[nodiscard]] double speed() const noexcept { return kSpeeds[speed_]; }
  [[nodiscard]] bool quit() const noexcept { return quit_; }
  [[nodiscard]] bool tree() const noexcept { return tree_; }
  [[nodiscard]] const std::string& filter() const noexcept { return filter_; }
  [[nodiscard]] const std::optional<ContainerScope>& container() const noexcept {
    return container_;
  }
  [[nodiscard]] const std::string& search() const noexcept { return search_; }
  [[nodiscard]] const std::string& prompt() const noexcept { return prompt_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }
  [[nodiscard]] const Table& table() const noexcept { return table_; }
  [[nodiscard]] const SystemView& system() const noexcept { return system_; }
  [[nodiscard]] size_t selected() const noexcept { return selected_; }
  [[nodiscard]] size_t scroll() const noexcept { return scroll_; }
  // How many characters of each table line are scrolled off to the left (Left/Right).
  [[nodiscard]] size_t scroll_x() const noexcept { return scroll_x_; }
  [[nodiscard]] size_t page_width() const noexcept { return page_width_; }
  [[nodiscard]] size_t sort_column() const;
  [[nodiscard]] bool sort_descending() const;

 private:
  void normal_key(int key);
  // The groups of normal-mode actions (keymap.h); move_in_time is false for an action not its own.
  bool move_in_time(Action action);
  void jump_to_next_trigger();
  void arrange(Action action);
  void switch_tab(size_t step);
  void show_tab(Tab tab);
  void narrow_to_selected_container();
  void move_selection(Action action);
  void prompt_key(int key);
  void move_cursor(size_t cursor);
  void select(size_t row);
  void sort_by(std::string_view column);
  void find_next(bool include_current);
  void rebuild();
  [[nodiscard]] size_t max_scroll_x() const;

  const Model& model_;
  size_t cursor_ = 0;
  Tab tab_ = Tab::processes;
  int64_t interval_ns_ = 0;
  int64_t grow_span_ns_ = kDefaultGrowSpanNs;
  std::array<std::optional<size_t>, std::size(kTabs)> sort_{};
  std::array<bool, std::size(kTabs)> reverse_{};
  std::string filter_;
  std::optional<ContainerScope> container_;
  std::string search_;
  bool tree_ = false;
  Mode mode_ = Mode::normal;
  std::string prompt_;
  std::string message_;
  bool playing_ = false;
  size_t speed_ = 5;  // 1x
  int64_t carry_ns_ = 0;
  size_t next_trigger_ = 0;
  bool quit_ = false;
  bool damage_shown_ = false;  // the model's process_error() is in the message bar, or was
  size_t page_rows_ = 10;
  size_t selected_ = 0;
  size_t scroll_ = 0;
  size_t page_width_ = 80;
  size_t scroll_x_ = 0;
  Table table_;
  SystemView system_;
};

}  // namespace flightrec::replay
