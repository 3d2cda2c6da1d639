#include "flightrec/replay/table.h"

#include <pwd.h>
#include <sys/socket.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "flightrec/replay/format.h"

namespace flightrec::replay {
namespace {

using process::ProcessRow;
using process::SocketProtocol;
using process::SocketRow;

// The widest address a socket row holds: "[ffff:...:ffff]:65535".
constexpr size_t kAddressWidth = 47;
// Below this many columns the Processes tab leaves out DISK R/W and NET TX/RX (the Network tab
// has the traffic) and TIME+ (RGROW, what a leak is seen by, takes its place), and Connections its
// byte counts, so COMMAND and addresses stay readable at 80.
constexpr size_t kWideScreen = 100;
// A container's name widens the Processes tab's CONTAINER up to this ("namespace/pod" of most
// pods), beyond which it is cut (JSON has it whole); the column comes from kWiderScreen columns,
// where COMMAND keeps 40 beside it and the traffic columns.
constexpr size_t kContainerWidth = 30;
// The Containers tab's memory events, pressure and I/O take 38 columns: below 100 they give way to
// the name; its running totals and ids come from 140 on.
constexpr size_t kWiderScreen = 140;

Cell text_cell(const std::string& text) { return {printable(text), {}, std::nullopt, {}}; }
Cell number_cell(std::string text, std::optional<double> number) {
  return {std::move(text), {}, number, {}};
}
Cell int_cell(int64_t value) { return {std::to_string(value), {}, static_cast<double>(value), {}}; }

// Two amounts of bytes in one column ("1.2M/34K", "611B/610M"), sorted by their sum.
Cell pair_cell(std::string_view first_key, std::optional<double> first, std::string_view second_key,
               std::optional<double> second) {
  Cell cell;
  if (first || second) {
    cell.text = format_bytes_with_unit(first) + "/" + format_bytes_with_unit(second);
    cell.number = first.value_or(0) + second.value_or(0);
  } else {
    cell.text = "-";
  }
  cell.parts = {{std::string(first_key), first}, {std::string(second_key), second}};
  return cell;
}

std::string command_of(const ProcessRow& row) {
  std::string command = row.cmdline.empty() ? "[" + row.comm + "]" : row.cmdline;
  if (row.exited) command += " (exited)";
  return printable(command);
}

// htop's "hide program path": "/usr/bin/python3 leak.py" shows as "python3 leak.py", so narrow
// screens show what runs rather than where it is installed.
std::string without_program_path(const std::string& command) {
  if (!command.starts_with('/')) return command;
  const size_t program_end = std::min(command.find(' '), command.size());
  const size_t slash = command.rfind('/', program_end - 1);
  if (slash + 1 >= program_end) return command;  // "/" or "/dir/ args": nothing to show instead
  return command.substr(slash + 1);
}

// A command cell: shown without the program's path, the whole command line in JSON.
Cell command_cell(const std::string& command) {
  Cell cell = text_cell(without_program_path(command));
  if (cell.text != command) cell.full_text = command;
  return cell;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// ss's names for the kernel's TCP states (include/net/tcp_states.h numbers them from 1).
std::string tcp_state_name(uint8_t state) {
  static constexpr std::array<std::string_view, 12> kNames{
      "?",         "ESTAB",  "SYN-SENT",   "SYN-RECV", "FIN-WAIT-1", "FIN-WAIT-2",
      "TIME-WAIT", "UNCONN", "CLOSE-WAIT", "LAST-ACK", "LISTEN",     "CLOSING"};
  return state < kNames.size() ? std::string(kNames[state]) : std::to_string(state);
}

std::string protocol_name(const SocketRow& socket) {
  std::string name = socket.protocol == SocketProtocol::tcp ? "tcp" : "udp";
  if (socket.family == AF_INET6) name += "6";
  return name;
}

Column col(std::string name, std::string key, size_t width, bool left = false,
           bool descending_first = true) {
  return {std::move(name), std::move(key), width, left, descending_first, 0, 0};
}

Column narrow_screen_drops(Column column, size_t below = kWideScreen) {
  column.hide_below = below;
  return column;
}

Column address(std::string name, std::string key) {
  Column column = col(std::move(name), std::move(key), 15, true, false);
  column.max_width = kAddressWidth;
  return column;
}

const ProcessRow* find_process(const ProcessesAt& at, int32_t pid) {
  if (at.frame == nullptr || pid == 0) return nullptr;
  const auto& rows = at.frame->processes;
  const auto found = std::lower_bound(rows.begin(), rows.end(), pid,
                                      [](const ProcessRow& r, int32_t p) { return r.pid < p; });
  return found != rows.end() && found->pid == pid ? &*found : nullptr;
}

Column container_column() {
  Column column = narrow_screen_drops(col("CONTAINER", "container", 9, true, false), kWiderScreen);
  column.max_width = kContainerWidth;
  return column;
}

Table processes_table(const ProcessesAt& at, const UserNames& users) {
  Table table{
      Tab::processes,
      {col("PID", "pid", 7, false, false), col("USER", "user", 8, true, false),
       col("CPU%", "cpu_percent", 5), col("MEM%", "mem_percent", 5), col("RSS", "rss_bytes", 5),
       col("RGROW", "rss_growth_bytes", 5), narrow_screen_drops(col("DISK R/W", "disk_bps", 11)),
       narrow_screen_drops(col("NET TX/RX", "net_bps", 11)),
       narrow_screen_drops(col("TIME+", "cpu_time_seconds", 9)), container_column(),
       col("COMMAND", "command", 0, true, false)},
      {},
      2};
  for (const auto& p : at.rows) {
    const ProcessRow& r = *p.row;
    const std::string user = users(r.uid);
    const std::string command = command_of(r);
    const uint64_t cpu_ns = r.cpu_user_ns + r.cpu_system_ns;
    Row row;
    row.pid = r.pid;
    row.ppid = r.ppid;
    row.match_text = command;
    row.match_text.append(" ").append(user);
    if (!p.container.empty()) row.match_text.append(" ").append(p.container);
    row.container_id = r.container_id;
    row.cgroup = r.cgroup;
    row.cells = {
        int_cell(r.pid),
        text_cell(user),
        number_cell(format_percent(p.cpu), p.cpu ? std::optional(*p.cpu * 100) : std::nullopt),
        number_cell(format_percent(p.mem), p.mem ? std::optional(*p.mem * 100) : std::nullopt),
        number_cell(format_bytes(static_cast<double>(r.rss_bytes)),
                    static_cast<double>(r.rss_bytes)),
        number_cell(format_bytes_signed(p.rss_growth), p.rss_growth),
        pair_cell("disk_read_bps", p.read_bps, "disk_write_bps", p.write_bps),
        pair_cell("net_tx_bps", p.tx_bps, "net_rx_bps", p.rx_bps),
        number_cell(format_cpu_time(cpu_ns), static_cast<double>(cpu_ns) / 1e9),
        text_cell(p.container.empty() ? "-" : p.container),
        command_cell(command)};
    table.rows.push_back(std::move(row));
  }
  return table;
}

Table network_table(const ProcessesAt& at) {
  Table table{Tab::network,
              {col("PID", "pid", 7, false, false), col("UID", "uid", 6, false, false),
               col("DEV", "device", 6, true, false), col("XMIT_PK", "tx_packets", 8),
               col("RECV_PK", "rx_packets", 8), col("XMIT_KB", "tx_kb", 9),
               col("RECV_KB", "rx_kb", 9), col("TX/s", "tx_bps", 5), col("RX/s", "rx_bps", 5),
               col("COMMAND", "command", 0, true, false)},
              {},
              7};
  const auto add = [&](int32_t pid, const std::string& uid, const std::string& device,
                       const process::NetCounters& net, std::optional<double> tx_bps,
                       std::optional<double> rx_bps, const std::string& command) {
    Row row;
    row.pid = pid;
    row.match_text = command + " " + device;
    row.cells = {pid == 0 ? number_cell("-", std::nullopt) : int_cell(pid),
                 text_cell(uid),
                 text_cell(device.empty() ? "-" : device),
                 int_cell(static_cast<int64_t>(net.tx_packets)),
                 int_cell(static_cast<int64_t>(net.rx_packets)),
                 int_cell(static_cast<int64_t>(net.tx_bytes / 1024)),
                 int_cell(static_cast<int64_t>(net.rx_bytes / 1024)),
                 number_cell(format_bytes(tx_bps), tx_bps),
                 number_cell(format_bytes(rx_bps), rx_bps),
                 command_cell(command)};
    table.rows.push_back(std::move(row));
  };
  for (const auto& p : at.rows) {
    if (!p.row->net) continue;
    add(p.row->pid, std::to_string(p.row->uid), p.row->net_device, *p.row->net, p.tx_bps, p.rx_bps,
        command_of(*p.row));
  }
  if (at.frame != nullptr && at.frame->unattributed) {
    add(0, "-", "", *at.frame->unattributed, at.unattributed_tx_bps, at.unattributed_rx_bps,
        "(unattributed)");
  }
  return table;
}

Table sockets_table(const ProcessesAt& at, const UserNames& users, bool listening) {
  Table table;
  table.tab = listening ? Tab::listening : Tab::connections;
  if (listening) {
    table.columns = {col("PROTO", "protocol", 5, true, false), address("LOCAL", "local"),
                     col("PID", "pid", 7, false, false), col("USER", "user", 8, true, false),
                     col("COMMAND", "command", 0, true, false)};
    table.default_sort = 1;
  } else {
    table.columns = {col("PROTO", "protocol", 5, true, false),
                     address("LOCAL", "local"),
                     address("REMOTE", "remote"),
                     col("STATE", "state", 10, true, false),
                     col("PID", "pid", 7, false, false),
                     narrow_screen_drops(col("TX/RX", "bytes", 9)),
                     col("COMMAND", "command", 0, true, false)};
    table.default_sort = 5;
  }
  if (at.frame == nullptr) return table;
  for (const SocketRow& socket : at.frame->sockets) {
    if (socket.listening != listening) continue;
    const ProcessRow* owner = find_process(at, socket.pid);
    const std::string command = owner != nullptr ? command_of(*owner) : "-";
    const std::string user = users(socket.uid);
    Row row;
    row.pid = socket.pid;
    row.match_text = command;
    row.match_text.append(" ")
        .append(user)
        .append(" ")
        .append(socket.local)
        .append(" ")
        .append(socket.remote);
    const Cell pid = socket.pid == 0 ? number_cell("-", std::nullopt) : int_cell(socket.pid);
    if (listening) {
      row.cells = {text_cell(protocol_name(socket)), text_cell(socket.local), pid, text_cell(user),
                   command_cell(command)};
    } else {
      const auto as_double = [](std::optional<uint64_t> v) -> std::optional<double> {
        if (!v) return std::nullopt;
        return static_cast<double>(*v);
      };
      row.cells = {
          text_cell(protocol_name(socket)),
          text_cell(socket.local),
          text_cell(socket.remote),
          text_cell(socket.protocol == SocketProtocol::tcp ? tcp_state_name(socket.state)
                                                           : "UNCONN"),
          pid,
          pair_cell("tx_bytes", as_double(socket.tx_bytes), "rx_bytes", as_double(socket.rx_bytes)),
          command_cell(command)};
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

Table sessions_table(const ProcessesAt& at, const UserNames& users) {
  Table table{Tab::sessions,
              {col("SID", "session", 7, false, false), col("USER", "user", 8, true, false),
               col("TTY", "tty", 7, true, false), col("PROCS", "processes", 5),
               col("CPU%", "cpu_percent", 5), col("MEM%", "mem_percent", 5),
               col("RSS", "rss_bytes", 5), col("LEADER", "leader", 0, true, false)},
              {},
              4};
  struct Session {
    const ProcessRow* leader = nullptr;  // the session leader, else its lowest pid
    int processes = 0;
    std::optional<double> cpu, mem;
    uint64_t rss = 0;
    int32_t tty_nr = 0;
  };
  // Ordered by session id, then uid: a session whose processes changed uid (su, sudo) splits
  // per user, the way a login shows "who ran what".
  std::map<std::pair<int32_t, uint32_t>, Session> sessions;
  for (const auto& p : at.rows) {
    const ProcessRow& r = *p.row;
    if (r.kernel_thread) continue;
    Session& s = sessions[{r.session, r.uid}];
    if (s.leader == nullptr || r.pid == r.session) s.leader = &r;
    ++s.processes;
    if (p.cpu) s.cpu = s.cpu.value_or(0) + *p.cpu;
    if (p.mem) s.mem = s.mem.value_or(0) + *p.mem;
    s.rss += r.rss_bytes;
    if (s.tty_nr == 0) s.tty_nr = r.tty_nr;
  }
  for (const auto& [key, s] : sessions) {
    const auto& [sid, uid] = key;
    Row row;
    row.pid = sid;
    const std::string user = users(uid);
    const std::string leader = command_of(*s.leader);
    row.match_text = leader;
    row.match_text.append(" ").append(user);
    row.cells = {
        int_cell(sid),
        text_cell(user),
        text_cell(format_tty(s.tty_nr)),
        int_cell(s.processes),
        number_cell(format_percent(s.cpu), s.cpu ? std::optional(*s.cpu * 100) : std::nullopt),
        number_cell(format_percent(s.mem), s.mem ? std::optional(*s.mem * 100) : std::nullopt),
        number_cell(format_bytes(static_cast<double>(s.rss)), static_cast<double>(s.rss)),
        command_cell(leader)};
    table.rows.push_back(std::move(row));
  }
  return table;
}

Cell percent_cell(std::optional<double> ratio) {
  return number_cell(format_percent(ratio), ratio ? std::optional(*ratio * 100) : std::nullopt);
}

// Values that share a column ("0/3/1"), each under its own JSON key, sorted by their sum.
Cell parts_cell(std::vector<std::pair<std::string, std::optional<double>>> parts,
                const std::function<std::string(std::optional<double>)>& format) {
  Cell cell;
  bool any = false;
  for (const auto& [key, value] : parts) {
    if (!cell.text.empty()) cell.text += '/';
    cell.text += format(value);
    if (value) cell.number = cell.number.value_or(0) + *value;
    any = any || value.has_value();
  }
  if (!any) cell.text = "-";
  cell.parts = std::move(parts);
  return cell;
}

std::string count_text(std::optional<double> count) {
  return count ? std::to_string(std::llround(*count)) : "-";
}

std::string tenths_text(std::optional<double> value) {
  if (!value) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", *value);
  return text;
}

Table containers_table(const ContainersAt& at) {
  Table table{Tab::containers,
              {col("CPU%", "cpu_percent", 5), col("QUOTA%", "quota_percent", 6),
               col("THR%", "throttled_periods_percent", 5),
               col("THRms", "throttled_ms_per_period", 5), col("MEM", "memory_bytes", 5),
               col("LIMIT", "memory_limit_bytes", 5), col("MEM%", "memory_limit_percent", 5),
               narrow_screen_drops(col("HIGH", "memory_high_bytes", 5)),
               narrow_screen_drops(col("EV H/M/K", "memory_events", 8)),
               narrow_screen_drops(col("PSI C/M/I", "pressure", 14)),
               narrow_screen_drops(col("IO R/W", "io_bps", 11)),
               narrow_screen_drops(col("TIME+", "cpu_time_seconds", 9), kWiderScreen),
               narrow_screen_drops(col("TASKS", "tasks", 5), kWiderScreen),
               narrow_screen_drops(col("ID", "id", 12, true, false), kWiderScreen),
               col("NAME", "name", 0, true, false)},
              {},
              0};
  const auto bytes = [](std::optional<double> v) { return number_cell(format_bytes(v), v); };
  for (const ContainerRates& c : at.rows) {
    const container::ContainerRow& r = *c.row;
    Row row;
    row.key = r.path;
    row.container_id = r.id;
    row.match_text = c.name + " " + r.path + " " + r.id + " " + printable(r.image);
    Cell id = text_cell(r.id.size() > 12 ? r.id.substr(0, 12) : r.id);
    if (id.text != r.id) id.full_text = printable(r.id);
    Cell name = text_cell(c.name);
    name.full_text = c.name;
    row.cells = {percent_cell(c.cpu),
                 percent_cell(c.quota),
                 percent_cell(c.throttled_ratio),
                 number_cell(tenths_text(c.throttled_ms), c.throttled_ms),
                 bytes(c.memory_bytes),
                 bytes(c.limit_bytes),
                 percent_cell(c.memory_fill),
                 bytes(c.high_bytes),
                 parts_cell({{"memory_events_high", c.events_high},
                             {"memory_events_max", c.events_max},
                             {"memory_events_oom_kill", c.events_oom_kill}},
                            count_text),
                 parts_cell({{"cpu_pressure_some_ratio", c.cpu_pressure},
                             {"memory_pressure_some_ratio", c.memory_pressure},
                             {"io_pressure_some_ratio", c.io_pressure}},
                            format_percent),
                 pair_cell("io_read_bps", c.read_bps, "io_write_bps", c.write_bps),
                 c.cpu_time_seconds ? number_cell(format_cpu_time(static_cast<uint64_t>(
                                                      std::llround(*c.cpu_time_seconds * 1e9))),
                                                  c.cpu_time_seconds)
                                    : number_cell("-", std::nullopt),
                 number_cell(count_text(c.tasks), c.tasks),
                 id,
                 name};
    table.rows.push_back(std::move(row));
  }
  return table;
}

bool cell_before(const Cell& a, const Cell& b, bool descending) {
  if (a.number.has_value() != b.number.has_value()) return a.number.has_value();
  if (a.number && *a.number != *b.number) {
    return descending ? *a.number > *b.number : *a.number < *b.number;
  }
  if (!a.number && a.text != b.text) return descending ? a.text > b.text : a.text < b.text;
  return false;
}

// Children under their parent, siblings in sort order (rows already sorted).
void nest(Table& table) {
  std::unordered_set<int32_t> present;
  for (const Row& row : table.rows) present.insert(row.pid);
  std::unordered_map<int32_t, std::vector<size_t>> children;
  std::vector<size_t> roots;
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const Row& row = table.rows[i];
    if (row.ppid != row.pid && present.contains(row.ppid)) {
      children[row.ppid].push_back(i);
    } else {
      roots.push_back(i);
    }
  }
  std::vector<Row> nested;
  nested.reserve(table.rows.size());
  std::vector<std::pair<size_t, int>> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, 0);
  std::unordered_set<int32_t> visited;  // a pid cycle in corrupt data must not loop forever
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    Row& row = table.rows[index];
    if (!visited.insert(row.pid).second) continue;
    const auto found = children.find(row.pid);
    if (found != children.end()) {
      for (auto it = found->second.rbegin(); it != found->second.rend(); ++it) {
        stack.emplace_back(*it, depth + 1);
      }
    }
    row.depth = depth;
    if (depth > 0 && !row.cells.empty()) {
      row.cells.back().text =
          std::string(static_cast<size_t>(depth - 1) * 2, ' ') + "`- " + row.cells.back().text;
    }
    nested.push_back(std::move(row));
  }
  table.rows = std::move(nested);
}

}  // namespace

size_t tab_index(Tab tab) {
  for (size_t i = 0; i < std::size(kTabNames); ++i) {
    if (kTabNames[i].tab == tab) return i;
  }
  return 0;
}

std::string_view tab_name(Tab tab) { return kTabNames[tab_index(tab)].name; }

std::string_view tab_title(Tab tab) { return kTabNames[tab_index(tab)].title; }

std::optional<Tab> tab_named(std::string_view name) {
  for (const TabNames& tab : kTabNames) {
    if (lower(name) == tab.name) return tab.tab;
  }
  return std::nullopt;
}

UserNames system_user_names() {
  auto cache = std::make_shared<std::unordered_map<uint32_t, std::string>>();
  return [cache](uint32_t uid) {
    const auto found = cache->find(uid);
    if (found != cache->end()) return found->second;
    std::string name = std::to_string(uid);
    passwd entry{};
    passwd* result = nullptr;
    std::array<char, 4096> buffer{};
    if (getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &result) == 0 && result != nullptr) {
      name = entry.pw_name;
    }
    cache->emplace(uid, name);
    return name;
  };
}

Table build_table(Tab tab, const ProcessesAt& processes, const ContainersAt& containers,
                  const UserNames& users) {
  switch (tab) {
    case Tab::processes:
      return processes_table(processes, users);
    case Tab::network:
      return network_table(processes);
    case Tab::connections:
      return sockets_table(processes, users, false);
    case Tab::listening:
      return sockets_table(processes, users, true);
    case Tab::sessions:
      return sessions_table(processes, users);
    case Tab::containers:
      return containers_table(containers);
  }
  return processes_table(processes, users);
}

std::optional<size_t> column_named(const Table& table, std::string_view name) {
  const std::string wanted = lower(name);
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (lower(table.columns[i].name) == wanted || table.columns[i].key == wanted) return i;
  }
  return std::nullopt;
}

bool row_matches(const Row& row, std::string_view text) {
  if (text.empty()) return true;
  return lower(row.match_text).find(lower(text)) != std::string::npos;
}

bool in_container(const Row& row, const ContainerScope& scope) {
  if (!scope.id.empty() && row.container_id == scope.id) return true;
  if (scope.path.empty() || !row.cgroup.starts_with(scope.path)) return false;
  return row.cgroup.size() == scope.path.size() || row.cgroup[scope.path.size()] == '/';
}

void arrange(Table& table, const Arrangement& how) {
  if (how.container && table.tab == Tab::processes) {
    std::erase_if(table.rows, [&](const Row& row) { return !in_container(row, *how.container); });
  }
  if (!how.filter.empty()) {
    std::erase_if(table.rows, [&](const Row& row) { return !row_matches(row, how.filter); });
  }
  const size_t column =
      std::min(how.sort_column.value_or(table.default_sort), table.columns.size() - 1);
  const bool descending = table.columns[column].descending_first != how.reverse;
  std::stable_sort(table.rows.begin(), table.rows.end(), [&](const Row& a, const Row& b) {
    if (cell_before(a.cells[column], b.cells[column], descending)) return true;
    if (cell_before(b.cells[column], a.cells[column], descending)) return false;
    return a.pid != b.pid ? a.pid < b.pid : a.key < b.key;
  });
  if (how.tree && table.tab == Tab::processes) nest(table);
}

}  // namespace flightrec::replay
