// The screens of `flightrec top`: CPU and memory like top(1), or traffic like the classic nettop.
#include <time.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <map>

#include "flightrec/app/top.h"
#include "flightrec/common/printable.h"
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

// printf into a string; the attribute keeps -Wformat checking every call's arguments.
__attribute__((format(printf, 1, 2))) std::string format(const char* pattern, ...) {
  char line[512];
  va_list args;
  va_start(args, pattern);
  std::vsnprintf(line, sizeof line, pattern, args);
  va_end(args);
  return line;
}

// top's TIME+: minutes:seconds.hundredths of CPU time.
std::string cpu_time(uint64_t ns) {
  const uint64_t hundredths = ns / 10'000'000;
  return format("%" PRIu64 ":%02" PRIu64 ".%02" PRIu64, hundredths / 6000, hundredths / 100 % 60,
                hundredths % 100);
}

std::string human_bytes(uint64_t bytes) {
  if (bytes < 10'000ull * 1024) return format("%" PRIu64 "K", bytes / 1024);
  if (bytes < 10'000ull << 20) return format("%" PRIu64 "M", bytes >> 20);
  return format("%" PRIu64 "G", bytes >> 30);
}

// Names, command lines, user and device names are whatever their owners chose: each is made
// printable (printable.h) before it reaches the terminal, so none can retitle the window, recolour
// the screen or split a row. The fixed-width columns take ASCII, one byte per column as printf
// counts them; the command, last on its line, keeps its UTF-8.
std::string command_of(const ProcessRow& row) {
  return printable(row.cmdline.empty() ? row.comm : row.cmdline);
}

std::string column_text(std::string_view text) { return printable(text, Charset::ascii); }

std::string cpu_screen(const ProcessFrame* before, const ProcessFrame& now,
                       const TopContext& context, process::UserNames& users) {
  std::map<char, uint32_t> states;
  for (const auto& row : now.processes) {
    if (!row.exited) ++states[row.state];
  }
  uint32_t total = 0;
  for (const auto& [state, n] : states) total += n;
  const auto count = [&](char state) { return states.contains(state) ? states.at(state) : 0U; };
  std::string out = format(
      "flightrec top - %s  Tasks: %u total, %u running, %u sleeping, %u stopped, %u zombie\n",
      clock_of(now.time_unix_ns).c_str(), total, count('R'), count('S') + count('I') + count('D'),
      count('T') + count('t'), count('Z'));
  out += "    PID USER       S  %CPU  %MEM    RSS   VIRT  THR     TIME+ COMMAND\n";

  const auto rates = model::process_rates(before, now);
  struct Line {
    const ProcessRow* row;
    double cpu_percent;
  };
  std::vector<Line> lines;
  for (size_t i = 0; i < now.processes.size(); ++i) {
    const ProcessRow& row = now.processes[i];
    if (row.exited) continue;
    lines.push_back({&row, rates.processes[i].cpu.value_or(0) * 100});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.cpu_percent != b.cpu_percent ? a.cpu_percent > b.cpu_percent
                                          : a.row->rss_bytes > b.row->rss_bytes;
  });
  if (context.limit != 0 && lines.size() > context.limit) lines.resize(context.limit);
  for (const Line& line : lines) {
    const ProcessRow& row = *line.row;
    const double mem_percent = context.mem_total_bytes == 0
                                   ? 0
                                   : static_cast<double>(row.rss_bytes) * 100.0 /
                                         static_cast<double>(context.mem_total_bytes);
    // The command goes after the fixed-width columns, whole (format's buffer is for those).
    out +=
        format("%7d %-10.10s %c %5.1f %5.1f %6s %6s %4u %9s ", row.pid,
               column_text(users.name(row.uid)).c_str(), row.state, line.cpu_percent, mem_percent,
               human_bytes(row.rss_bytes).c_str(), human_bytes(row.vsz_bytes).c_str(), row.threads,
               cpu_time(row.cpu_user_ns + row.cpu_system_ns).c_str());
    out += command_of(row) + '\n';
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
  std::string out = format("flightrec top --net - %s  backend: %s  interval: %.2fs\n",
                           clock_of(now.time_unix_ns).c_str(),
                           context.backend.empty() ? "none" : context.backend.c_str(), seconds);
  if (!context.note.empty()) out += "note: " + context.note + "\n";
  out +=
      "    PID   UID DEV        XMIT_PK  RECV_PK    XMIT_KB    RECV_KB  XMIT_KB/s  RECV_KB/s "
      "COMMAND\n";

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
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.moved.tx_bytes + a.moved.rx_bytes > b.moved.tx_bytes + b.moved.rx_bytes;
  });
  if (context.limit != 0 && lines.size() > context.limit) lines.resize(context.limit);
  const auto kb = [](uint64_t bytes) { return static_cast<double>(bytes) / 1024.0; };
  const auto rate = [&](uint64_t bytes) { return seconds > 0 ? kb(bytes) / seconds : 0.0; };
  const auto print = [&](const char* pid, const char* uid, const char* dev, const NetCounters& n,
                         const std::string& command) {
    out += format("%7s %5s %-10.10s %8" PRIu64 " %8" PRIu64 " %10.1f %10.1f %10.1f %10.1f ", pid,
                  uid, dev, n.tx_packets, n.rx_packets, kb(n.tx_bytes), kb(n.rx_bytes),
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
