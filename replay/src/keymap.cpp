#include "flightrec/replay/keymap.h"

#include <algorithm>

#include "flightrec/replay/session.h"

namespace flightrec::replay {
namespace {

// The help screen's key column: labels padded to this width, or followed by two spaces.
constexpr size_t kKeyColumn = 12;

}  // namespace

const std::vector<KeyHelp>& keymap() {
  using enum Action;
  static const std::vector<KeyHelp> table{
      {{{keys::kF1, "F1", help}, {'h', "h", help}, {'?', "?", help}},
       "this help (any key returns)",
       "h:Help"},
      {{{'q', "q", quit}, {keys::kF10, "F10", quit}}, "quit", "q:Quit"},
      {{{'[', "[", step_back}, {']', "]", step_forward}}, "one sample back / forward", "[]:Step"},
      {{{'{', "{", second_back}, {'}', "}", second_forward}}, "one second back / forward", "{}:1s"},
      {{{keys::kHome, "Home", to_start}, {keys::kEnd, "End", to_end}},
       "start / end of the recording"},
      {{{' ', "space", play}}, "play / pause (in recording time x speed)", "Spc:Play"},
      {{{'+', "+", faster}, {'-', "-", slower}, {'=', "=", faster}},
       "playback speed up / down (= is + without shift)"},
      {{{'g', "g", go_to}},
       "go to a time: RFC 3339, 07:46:35, Unix seconds, +2.5s, -1s, start, end",
       "g:Goto"},
      {{{'i', "i", next_trigger}, {'d', "d", trigger_details}},
       "jump to the (next) trigger point (! on the timeline) / its details",
       "i:Trig"},
      {{{'r', "r", next_interval}, {'w', "w", next_grow_span}},
       "rates over 1 sample/10ms/100ms/1s / RGROW over 1s/10s/1m/all"},
      {{{keys::kTab, "Tab", next_tab}, {keys::kBackTab, "S-Tab", previous_tab}},
       "next / previous tab",
       "Tab"},
      {{{'C', "C", containers_tab},
        {keys::kEnter, "Enter", narrow_to_container},
        {'x', "x", all_processes}},
       "Containers tab / Processes of the selected one / of all again"},
      {{{keys::kF3, "F3", search}, {'/', "/", search}, {'n', "n", next_match}},
       "search / next match",
       "/:Search"},
      {{{keys::kF4, "F4", filter}, {'\\', "\\", filter}},
       "filter rows (Esc in the prompt clears it)",
       "\\:Filter"},
      {{{keys::kF5, "F5", tree}, {'t', "t", tree}}, "tree view (Processes)", "t:Tree"},
      {{{keys::kF6, "F6", sort_next}, {'>', ">", sort_next}, {'<', "<", sort_previous}},
       "sort by the next / previous column (selects the top row)",
       "<>:Sort"},
      {{{'M', "M", sort_by_memory},
        {'P', "P", sort_by_cpu},
        {'T', "T", sort_by_time},
        {'I', "I", invert_sort}},
       "sort by MEM% / CPU% / TIME+ / invert the order"},
      {{{keys::kUp, "Up", up},
        {keys::kDown, "Down", down},
        {keys::kPageUp, "PgUp", page_up},
        {keys::kPageDown, "PgDn", page_down}},
       "move the selection (it follows its process in time)"},
      {{{keys::kLeft, "Left", left}, {keys::kRight, "Right", right}}, "scroll the table sideways"},
  };
  return table;
}

std::optional<Action> action_of(int key) {
  for (const KeyHelp& entry : keymap()) {
    for (const KeyBinding& binding : entry.bindings) {
      if (binding.key == key) return binding.action;
    }
  }
  return std::nullopt;
}

std::string key_bar_text() {
  std::string bar;
  for (const KeyHelp& entry : keymap()) {
    if (entry.bar.empty()) continue;
    if (!bar.empty()) bar += ' ';
    bar += entry.bar;
  }
  return bar;
}

std::vector<std::string> help_lines() {
  std::vector<std::string> lines{"flightrec replay - keys", ""};
  for (const KeyHelp& entry : keymap()) {
    std::string keys_text;
    for (const KeyBinding& binding : entry.bindings) {
      if (!keys_text.empty()) keys_text += ' ';
      keys_text += binding.label;
    }
    keys_text.resize(std::max(keys_text.size() + 2, kKeyColumn), ' ');
    lines.push_back("  " + keys_text + std::string(entry.what));
  }
  lines.emplace_back("");
  // One line, or the help would not fit 24 lines.
  lines.emplace_back(
      "Timeline: # cursor, ! trigger. Period strip: . free, 1-9 tenths throttled, # all");
  return lines;
}

}  // namespace flightrec::replay
