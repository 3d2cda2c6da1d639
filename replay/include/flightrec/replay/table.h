#pragma once
// The tabs of replay's table (Processes, Network, Connections, Listening, Sessions, Containers) as
// plain rows of cells: the TUI, the text batch output and the JSON batch output all print these.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/replay/container_view.h"
#include "flightrec/replay/process_view.h"

namespace flightrec::replay {

enum class Tab { processes, network, connections, listening, sessions, containers };

struct TabNames {
  Tab tab;
  std::string_view name;   // what --tab takes and JSON prints: "processes"
  std::string_view title;  // what the tab bar and the text output show: "Processes"
};
// The one list of tabs, in the order the tab bar shows them and Tab steps through.
inline constexpr TabNames kTabNames[] = {{Tab::processes, "processes", "Processes"},
                                         {Tab::network, "network", "Network"},
                                         {Tab::connections, "connections", "Connections"},
                                         {Tab::listening, "listening", "Listening"},
                                         {Tab::sessions, "sessions", "Sessions"},
                                         {Tab::containers, "containers", "Containers"}};
inline constexpr auto kTabs = [] {
  std::array<Tab, std::size(kTabNames)> tabs{};
  for (size_t i = 0; i < tabs.size(); ++i) tabs[i] = kTabNames[i].tab;
  return tabs;
}();

size_t tab_index(Tab tab);            // its place in kTabNames
std::string_view tab_name(Tab tab);   // "processes", ...
std::string_view tab_title(Tab tab);  // "Processes", ...
std::optional<Tab> tab_named(std::string_view name);

struct Cell {
  std::string text;              // as shown (a command's argv[0] without its directory)
  std::string full_text;         // what JSON prints when `text` is shortened for display; "" = text
  std::optional<double> number;  // what sorting and JSON use; nothing for text cells
  // Values a combined column ("DISK R/W") shows, under their own JSON keys.
  std::vector<std::pair<std::string, std::optional<double>>> parts;
};

struct Column {
  std::string name;  // header text, also the --sort name (case-insensitive)
  std::string key;   // JSON key
  size_t width = 0;  // the last column takes what is left
  bool left = false;
  bool descending_first = true;  // numbers biggest first, text A to Z
  // Screens narrower than this leave the column out (it stays in batch output and on its own tab).
  size_t hide_below = 0;
  // Above `width`: the column widens to its widest cell up to this (addresses).
  size_t max_width = 0;
};

struct Row {
  std::vector<Cell> cells;
  int32_t pid = 0;
  int32_t ppid = 0;
  int depth = 0;           // in tree view
  std::string match_text;  // what search and filter look at (command, user, addresses)
  // A container row's cgroup path: what the selection follows (its pid is 0).
  std::string key;
  // A process row's container id and cgroup path (ProcessRow's), for the container narrowing; a
  // container row's id (ContainerRow::id).
  std::string container_id;
  std::string cgroup;
};

struct Table {
  Tab tab = Tab::processes;
  std::vector<Column> columns;
  std::vector<Row> rows;
  size_t default_sort = 0;
};

// Names the machine replaying knows for a uid (recordings carry uids, not names).
using UserNames = std::function<std::string(uint32_t uid)>;
UserNames system_user_names();

// `containers` is read by the Containers tab only.
Table build_table(Tab tab, const ProcessesAt& processes, const ContainersAt& containers,
                  const UserNames& users);

// Case-insensitive column lookup by name ("CPU%", "mem%") or JSON key ("cpu_percent").
std::optional<size_t> column_named(const Table& table, std::string_view name);

// The container the Processes tab is narrowed to (Enter on the Containers tab).
struct ContainerScope {
  std::string path;  // its cgroup path
  std::string id;    // ContainerRow::id
  std::string name;  // as the Containers tab shows it
};

// Whether a process row belongs to the container: its container id is the container's, or its
// cgroup is the container's or one below it (a service's or a regex match's processes carry no
// runtime id).
bool in_container(const Row& row, const ContainerScope& scope);

struct Arrangement {
  std::optional<size_t> sort_column;        // the table's default when empty
  bool reverse = false;                     // against the column's natural direction
  std::string filter;                       // keep rows whose match_text contains it (any case)
  bool tree = false;                        // parents before children, indented (Processes only)
  std::optional<ContainerScope> container;  // keep only its processes (Processes only)
};

// Narrows to a container, filters, sorts (ties by pid, then key, so output is deterministic) and,
// in tree mode, nests the rows.
void arrange(Table& table, const Arrangement& how);

// Whether a row matches a search or filter text (case-insensitive substring; "" matches all).
bool row_matches(const Row& row, std::string_view text);

}  // namespace flightrec::replay
