#pragma once
// Every key of the interactive view, what it does and how the help screen names it, in one table:
// the session dispatches through it and the help screen is printed from it, so neither can list a
// key the other does not know.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec::replay {

enum class Action {
  help,
  quit,
  step_back,
  step_forward,
  second_back,
  second_forward,
  to_start,
  to_end,
  play,
  faster,
  slower,
  go_to,
  next_trigger,
  trigger_details,
  next_interval,
  next_grow_span,
  next_tab,
  previous_tab,
  containers_tab,
  narrow_to_container,
  all_processes,
  search,
  next_match,
  filter,
  tree,
  sort_next,
  sort_previous,
  sort_by_memory,
  sort_by_cpu,
  sort_by_time,
  invert_sort,
  up,
  down,
  page_up,
  page_down,
  left,
  right,
};

struct KeyBinding {
  int key;                 // a character, or one of keys::k* (session.h)
  std::string_view label;  // as the help screen shows it: "F1", "h", "PgUp"
  Action action;
};

// One line of the help screen: its keys and what they do, and its short form on the key bar.
struct KeyHelp {
  std::vector<KeyBinding> bindings;
  std::string_view what;
  std::string_view bar = {};  // "h:Help"; empty: not on the key bar
};

// In help-screen order.
const std::vector<KeyHelp>& keymap();

// What `key` does in the normal mode; nullopt for a key without a use.
std::optional<Action> action_of(int key);

// The key bar at the bottom of the normal view: the entries' short forms, in keymap order.
std::string key_bar_text();

// The help screen: a title, one line per keymap entry ("  F1 h ?      this help ..."), a legend.
std::vector<std::string> help_lines();

}  // namespace flightrec::replay
