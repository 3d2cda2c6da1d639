#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "flightrec/common/number_format.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/time_format.h"
#include "flightrec/snapshot/render.h"
#include "text_table.h"

namespace flightrec::snapshot {
namespace {

using detail::Align;
using detail::TextTable;

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kDayNs = 86'400 * kNanosPerSecond;

std::string value_text(const SystemValue& value) {
  // Only as many decimals as the stored unit has (USER_HZ: hundredths); the JSON keeps the double.
  std::string out = scaled_number_text(value.raw, value.scale);
  if (!value.unit.empty()) out += " " + value.unit;
  return out;
}

std::string series_text(const SystemValue& value) {
  std::string out = printable(value.name);
  if (value.labels.empty()) return out;
  out += '{';
  for (size_t i = 0; i < value.labels.size(); ++i) {
    if (i > 0) out += ',';
    out += printable(value.labels[i].first) + "=\"" + printable(value.labels[i].second) + '"';
  }
  out += '}';
  return out;
}

// top's TIME+: minutes:seconds.hundredths.
std::string cpu_time_text(double seconds) {
  const auto centis = static_cast<int64_t>(std::llround(seconds * 100.0));
  char text[32];
  std::snprintf(text, sizeof text, "%lld:%02lld.%02lld", static_cast<long long>(centis / 6000),
                static_cast<long long>(centis / 100 % 60), static_cast<long long>(centis % 100));
  return text;
}

// ps's START: the time of day within the last 24 hours, else the date, else the year (UTC).
std::string start_text(int64_t start_ns, int64_t now_ns) {
  const auto start = static_cast<std::time_t>(start_ns / kNanosPerSecond);
  const auto now = static_cast<std::time_t>(now_ns / kNanosPerSecond);
  std::tm start_tm{};
  std::tm now_tm{};
  gmtime_r(&start, &start_tm);
  gmtime_r(&now, &now_tm);
  char text[16];
  size_t length = 0;
  if (now_ns - start_ns < kDayNs) {
    length = std::strftime(text, sizeof text, "%H:%M", &start_tm);
  } else if (start_tm.tm_year == now_tm.tm_year) {
    length = std::strftime(text, sizeof text, "%b%d", &start_tm);
  } else {
    length = std::strftime(text, sizeof text, "%Y", &start_tm);
  }
  return std::string(text, length);
}

std::string command_text(const ProcessEntry& process) {
  std::string out = process.cmdline.empty() ? "[" + process.comm + "]" : process.cmdline;
  if (process.state == 'Z') out += " <defunct>";
  return printable(out);
}

std::string kib_text(uint64_t bytes) { return std::to_string(bytes / 1024); }

void render_system(const Snapshot& snapshot, std::string& out) {
  out += "\nSYSTEM\n";
  if (snapshot.system.empty()) {
    out += "  (no system values)\n";
    return;
  }
  TextTable table({Align::left, Align::right});
  for (const SystemValue& value : snapshot.system) {
    table.add_row({series_text(value), value_text(value)});
  }
  table.render(out, "  ");
}

void render_processes(const Snapshot& snapshot, ProcessOrder order, std::string& out) {
  std::vector<const ProcessEntry*> sorted;
  sorted.reserve(snapshot.processes.size());
  for (const ProcessEntry& process : snapshot.processes) sorted.push_back(&process);
  // Largest first; ties in PID order so the output is stable.
  const auto key = [order](const ProcessEntry* p) {
    return order == ProcessOrder::rss ? static_cast<double>(p->rss_bytes) : p->cpu_seconds();
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const ProcessEntry* a, const ProcessEntry* b) { return key(a) > key(b); });

  out +=
      order == ProcessOrder::rss ? "\nPROCESSES by resident memory\n" : "\nPROCESSES by CPU time\n";
  TextTable table({Align::right, Align::right, Align::left, Align::left, Align::right, Align::right,
                   Align::right, Align::right, Align::right, Align::right, Align::left,
                   Align::left});
  table.add_row({"PID", "PPID", "USER", "S", "THR", "RSS_KiB", "VSZ_KiB", "TIME+", "MINFLT",
                 "MAJFLT", "START", "COMMAND"});
  for (const ProcessEntry* p : sorted) {
    table.add_row({std::to_string(p->pid), std::to_string(p->ppid),
                   p->user.empty() ? "?" : printable(p->user), printable(std::string(1, p->state)),
                   std::to_string(p->threads), kib_text(p->rss_bytes), kib_text(p->vsz_bytes),
                   cpu_time_text(p->cpu_seconds()), std::to_string(p->minflt),
                   std::to_string(p->majflt),
                   start_text(p->start_time_unix_ns, snapshot.time_unix_ns), command_text(*p)});
  }
  table.render(out, "  ");
}

}  // namespace

std::string render_text(const Snapshot& snapshot, ProcessOrder order) {
  std::string out = "flightrec snapshot at " + format_rfc3339_ms(snapshot.time_unix_ns) + "\n";
  out += "host " + printable(snapshot.hostname) + "  kernel " + printable(snapshot.kernel_release) +
         "  booted " + format_rfc3339_ms(snapshot.boot_time_unix_ns) + "\n";
  out += "processes: " + std::to_string(snapshot.processes_listed) + " listed, " +
         std::to_string(snapshot.processes.size()) + " read, " +
         std::to_string(snapshot.processes_vanished) + " exited while being read\n";
  render_system(snapshot, out);
  render_processes(snapshot, order, out);
  if (!snapshot.errors.empty()) {
    out += "\nERRORS\n";
    for (const std::string& error : snapshot.errors) out += "  " + printable(error) + "\n";
  }
  return out;
}

}  // namespace flightrec::snapshot
