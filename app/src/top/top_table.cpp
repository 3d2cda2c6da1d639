// The screens of `flightrec top`: CPU and memory like top(1), or traffic like the classic nettop.
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <iterator>
#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "flightrec/app/top.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/printf_string.h"
#include "flightrec/model/process_rates.h"

namespace flightrec::app {
namespace {

using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;

std::string clock_of(int64_t unix_ns) {
  const time_t seconds = static_cast<time_t>(unix_ns / 1'000'000'000);
  tm local{};
  localtime_r(&seconds, &local);
  char text[16];
  std::strftime(text, sizeof text, "%H:%M:%S", &local);
  return text;
}

// top's TIME+: minutes:seconds.hundredths of CPU time.
std::string cpu_time(uint64_t ns) {
  const uint64_t hundredths = ns / 10'000'000;
  return printf_string("%" PRIu64 ":%02" PRIu64 ".%02" PRIu64, hundredths / 6000,
                       hundredths / 100 % 60, hundredths % 100);
}

std::string human_bytes(uint64_t bytes) {
  if (bytes < 10'000ull * 1024) return printf_string("%" PRIu64 "K", bytes / 1024);
  if (bytes < 10'000ull << 20) return printf_string("%" PRIu64 "M", bytes >> 20);
  return printf_string("%" PRIu64 "G", bytes >> 30);
}

// Names, command lines, user and device names are whatever their owners chose: each is made
// printable (printable.h) before it reaches the terminal, so none can retitle the window, recolour
// the screen or split a row. The fixed-width columns take ASCII, one byte per column as printf
// counts them; the command, last on its line, keeps its UTF-8.
std::string command_of(const ProcessRow& row) {
  return printable(row.cmdline.empty() ? row.comm : row.cmdline);
}

std::string column_text(std::string_view text) { return printable(text, Charset::ascii); }

// One header cell: its column's name at the width its values take. The sort column is marked
// with a * (left of a right-aligned name, so numbers stay under it), as htop highlights it.
struct HeaderCell {
  std::optional<TopColumn> column;  // null: not sortable
  std::string_view name;
  int width;  // 0: the last column, unpadded
  bool left = false;
};

bool marked(const HeaderCell& cell, const TopView& view) {
  if (!cell.column) return false;
  if (view.sort == TopColumn::total) {
    return cell.column == TopColumn::tx_bytes || cell.column == TopColumn::rx_bytes;
  }
  return cell.column == view.sort;
}

std::string header(std::span<const HeaderCell> cells, const TopView& view) {
  std::string out;
  for (const HeaderCell& cell : cells) {
    if (!out.empty()) out += ' ';
    const std::string name = marked(cell, view) ? (cell.left ? std::string(cell.name) + "*"
                                                             : "*" + std::string(cell.name))
                                                : std::string(cell.name);
    out += printf_string(cell.left ? "%-*s" : "%*s", cell.width, name.c_str());
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + "\n";
}

// The CONTAINER column's widest: "namespace/pod/container" names run long, and the command after
// it matters more.
constexpr size_t kContainerWidth = 30;

constexpr HeaderCell kCpuHeader[] = {
    {TopColumn::pid, "PID", 7},    {TopColumn::user, "USER", 10, true},
    {std::nullopt, "S", 1, true},  {TopColumn::cpu, "%CPU", 5},
    {TopColumn::mem, "%MEM", 5},   {TopColumn::rss, "RSS", 6},
    {TopColumn::virt, "VIRT", 6},  {TopColumn::threads, "THR", 4},
    {TopColumn::time, "TIME+", 9}, {TopColumn::command, "COMMAND", 0, true}};

constexpr HeaderCell kNetHeader[] = {{TopColumn::pid, "PID", 7},
                                     {TopColumn::uid, "UID", 5},
                                     {std::nullopt, "DEV", 10, true},
                                     {TopColumn::tx_packets, "XMIT_PK", 8},
                                     {TopColumn::rx_packets, "RECV_PK", 8},
                                     {TopColumn::tx_bytes, "XMIT_KB", 10},
                                     {TopColumn::rx_bytes, "RECV_KB", 10},
                                     {std::nullopt, "XMIT_KB/s", 10},
                                     {std::nullopt, "RECV_KB/s", 10},
                                     {std::nullopt, "COMMAND", 0, true}};

// -1, 0 or 1 as `a` sorts before, with or after `b`.
template <typename T>
int three_way(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

// Sorts by the view's column: numbers largest first, PID, UID, USER and COMMAND in ascending
// order; R reverses either. Ties go by PID, so the order is stable from screen to screen.
template <typename Line, typename Compare>
void sort_lines(std::vector<Line>& lines, const TopView& view, Compare compare) {
  std::sort(lines.begin(), lines.end(), [&](const Line& a, const Line& b) {
    int order = compare(a, b);
    if (order == 0) order = three_way(a.row->pid, b.row->pid);
    return view.reversed ? order > 0 : order < 0;
  });
}

// top's first lines: the time, uptime and load, the tasks, then CPU and memory.
std::string cpu_title(const ProcessFrame& now, const TopSummary& summary) {
  std::map<char, uint32_t> states;
  for (const auto& row : now.processes) {
    if (!row.exited) ++states[row.state];
  }
  uint32_t total = 0;
  for (const auto& [state, n] : states) total += n;
  const auto count = [&](char state) { return states.contains(state) ? states.at(state) : 0U; };
  std::string out =
      printf_string("flightrec top - %s%s%s\n", clock_of(now.time_unix_ns).c_str(),
                    summary.uptime_and_load.empty() ? "" : " ", summary.uptime_and_load.c_str());
  out += printf_string("Tasks: %u total, %u running, %u sleeping, %u stopped, %u zombie\n", total,
                       count('R'), count('S') + count('I') + count('D'), count('T') + count('t'),
                       count('Z'));
  return out + summary.lines;
}

std::string cpu_screen(const ProcessFrame* before, const ProcessFrame& now,
                       const TopContext& context, process::UserNames& users) {
  std::string out = cpu_title(now, context.summary);

  const auto rates = model::process_rates(before, now);
  struct Line {
    const ProcessRow* row;
    double cpu_percent;
    std::string user;
    std::string command;
    std::string container;
  };
  std::vector<Line> lines;
  for (size_t i = 0; i < now.processes.size(); ++i) {
    const ProcessRow& row = now.processes[i];
    if (row.exited) continue;
    lines.push_back({&row, rates.processes[i].cpu.value_or(0) * 100,
                     column_text(users.name(row.uid)), command_of(row),
                     context.container_of ? column_text(context.container_of(row)) : ""});
  }
  const auto compare = [&](const Line& a, const Line& b) {
    const ProcessRow& x = *a.row;
    const ProcessRow& y = *b.row;
    switch (context.view.sort) {
      case TopColumn::pid:
        return three_way(x.pid, y.pid);
      case TopColumn::user:
        return three_way(a.user, b.user);
      case TopColumn::cpu: {  // equal CPU: the larger RSS first, as before keys existed
        const int by_cpu = three_way(b.cpu_percent, a.cpu_percent);
        return by_cpu != 0 ? by_cpu : three_way(y.rss_bytes, x.rss_bytes);
      }
      case TopColumn::mem:
      case TopColumn::rss:
        return three_way(y.rss_bytes, x.rss_bytes);
      case TopColumn::virt:
        return three_way(y.vsz_bytes, x.vsz_bytes);
      case TopColumn::threads:
        return three_way(y.threads, x.threads);
      case TopColumn::time:
        return three_way(y.cpu_user_ns + y.cpu_system_ns, x.cpu_user_ns + x.cpu_system_ns);
      case TopColumn::command:
        return three_way(a.command, b.command);
      default:  // --net's columns: the CPU screen's own default
        return three_way(b.cpu_percent, a.cpu_percent);
    }
  };
  sort_lines(lines, context.view, compare);
  if (context.limit != 0 && lines.size() > context.limit) lines.resize(context.limit);
  // CONTAINER, before COMMAND, only when a process shown is in a container: as wide as the
  // longest name up to kContainerWidth, a longer one cut.
  size_t container_width = 0;
  for (const Line& line : lines) container_width = std::max(container_width, line.container.size());
  const bool containers = container_width > 0;
  container_width =
      std::clamp(container_width, std::string_view("CONTAINER").size(), kContainerWidth);
  std::vector<HeaderCell> cells(std::begin(kCpuHeader), std::end(kCpuHeader));
  if (containers) {
    cells.insert(cells.end() - 1,
                 {std::nullopt, "CONTAINER", static_cast<int>(container_width), true});
  }
  out += "\n" + header(cells, context.view);
  for (const Line& line : lines) {
    const ProcessRow& row = *line.row;
    const double mem_percent = context.mem_total_bytes == 0
                                   ? 0
                                   : static_cast<double>(row.rss_bytes) * 100.0 /
                                         static_cast<double>(context.mem_total_bytes);
    // The command goes after the fixed-width columns, whole (format's buffer is for those).
    out += printf_string("%7d %-10.10s %c %5.1f %5.1f %6s %6s %4u %9s ", row.pid, line.user.c_str(),
                         row.state, line.cpu_percent, mem_percent,
                         human_bytes(row.rss_bytes).c_str(), human_bytes(row.vsz_bytes).c_str(),
                         row.threads, cpu_time(row.cpu_user_ns + row.cpu_system_ns).c_str());
    if (containers) {
      const int width = static_cast<int>(container_width);
      out += printf_string("%-*.*s ", width, width,
                           line.container.empty() ? "-" : line.container.c_str());
    }
    out += line.command + '\n';
  }
  return out;
}

// What a counter moved over the interval, back from its rate: the screen shows both.
uint64_t moved(std::optional<double> per_second, double seconds) {
  return per_second ? static_cast<uint64_t>(std::llround(*per_second * seconds)) : 0;
}

NetCounters moved(const model::NetRates& rates, double seconds) {
  return {moved(rates.tx_bytes, seconds), moved(rates.rx_bytes, seconds),
          moved(rates.tx_packets, seconds), moved(rates.rx_packets, seconds)};
}

std::string net_screen(const ProcessFrame* before, const ProcessFrame& now,
                       const TopContext& context) {
  const auto rates = model::process_rates(before, now);
  const double seconds = rates.seconds;
  std::string out =
      printf_string("flightrec top --net - %s  backend: %s  interval: %.2fs\n",
                    clock_of(now.time_unix_ns).c_str(),
                    context.backend.empty() ? "none" : context.backend.c_str(), seconds);
  if (!context.note.empty()) out += "note: " + context.note + "\n";
  out += header(kNetHeader, context.view);

  struct Line {
    const ProcessRow* row;
    NetCounters moved;
  };
  std::vector<Line> lines;
  NetCounters total;
  for (size_t i = 0; i < now.processes.size(); ++i) {
    const ProcessRow& row = now.processes[i];
    const NetCounters traffic = moved(rates.processes[i].net, seconds);
    if (traffic == NetCounters{}) continue;
    total.tx_bytes += traffic.tx_bytes;
    total.rx_bytes += traffic.rx_bytes;
    total.tx_packets += traffic.tx_packets;
    total.rx_packets += traffic.rx_packets;
    lines.push_back({&row, traffic});
  }
  const auto compare = [&](const Line& a, const Line& b) {
    const NetCounters& x = a.moved;
    const NetCounters& y = b.moved;
    switch (context.view.sort) {
      case TopColumn::pid:
        return three_way(a.row->pid, b.row->pid);
      case TopColumn::uid:
        return three_way(a.row->uid, b.row->uid);
      case TopColumn::tx_packets:
        return three_way(y.tx_packets, x.tx_packets);
      case TopColumn::rx_packets:
        return three_way(y.rx_packets, x.rx_packets);
      case TopColumn::tx_bytes:
        return three_way(y.tx_bytes, x.tx_bytes);
      case TopColumn::rx_bytes:
        return three_way(y.rx_bytes, x.rx_bytes);
      default:  // total, and the CPU screen's columns: --net's own default
        return three_way(y.tx_bytes + y.rx_bytes, x.tx_bytes + x.rx_bytes);
    }
  };
  sort_lines(lines, context.view, compare);
  if (context.limit != 0 && lines.size() > context.limit) lines.resize(context.limit);
  const auto kb = [](uint64_t bytes) { return static_cast<double>(bytes) / 1024.0; };
  const auto rate = [&](uint64_t bytes) { return seconds > 0 ? kb(bytes) / seconds : 0.0; };
  const auto print = [&](const char* pid, const char* uid, const char* dev, const NetCounters& n,
                         const std::string& command) {
    out += printf_string("%7s %5s %-10.10s %8" PRIu64 " %8" PRIu64 " %10.1f %10.1f %10.1f %10.1f ",
                         pid, uid, dev, n.tx_packets, n.rx_packets, kb(n.tx_bytes), kb(n.rx_bytes),
                         rate(n.tx_bytes), rate(n.rx_bytes));
    out += command + '\n';
  };
  for (const Line& line : lines) {
    const ProcessRow& row = *line.row;
    const std::string pid = std::to_string(row.pid);
    const std::string uid = row.exited && row.uid == 0 ? "-" : std::to_string(row.uid);
    const std::string device = row.net_device.empty() ? "-" : column_text(row.net_device);
    print(pid.c_str(), uid.c_str(), device.c_str(), line.moved,
          row.exited ? command_of(row) + " (exited)" : command_of(row));
  }
  print("", "", "", total, "TOTAL (attributed)");
  if (now.unattributed) {
    print("", "", "", moved(rates.unattributed, seconds), "UNATTRIBUTED");
  }
  return out;
}

}  // namespace

std::string render_top(const ProcessFrame* before, const ProcessFrame& now, bool net,
                       const TopContext& context, process::UserNames& users) {
  return net ? net_screen(before, now, context) : cpu_screen(before, now, context, users);
}

}  // namespace flightrec::app
