#pragma once
// `flightrec top [--net]`: a refreshing table of processes, like top(1), or of per-process network
// traffic, like the classic nettop, with top's summary lines and keys (q, h, M, P, T, N, <, >, R).
// Sampling runs in this process (no daemon needed); the table, the summary and the keys are pure
// so they are unit-tested on hand-made frames and fixture samples.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "flightrec/app/cli.h"
#include "flightrec/common/flags.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/process/user_names.h"
#include "flightrec/sampler/series.h"

namespace flightrec::app {

struct TopOptions {
  bool net = false;         // --net: traffic per process instead of CPU and memory
  bool batch = false;       // --batch (-b): plain output for scripts, no screen clearing
  uint32_t iterations = 0;  // -n N: screens to print; 0 runs until q or a signal
  std::chrono::nanoseconds delay = std::chrono::seconds(1);  // -d DURATION between screens
  // --backend: network backend (auto, ebpf, sock_diag); empty: network.backend of the config
  std::string backend;
  uint32_t limit = 0;  // --limit N: rows per screen; 0 = all (batch) or fit the terminal
  std::optional<std::string> procfs;       // --path.procfs (default: the global flag's, /proc)
  std::optional<std::string> config_file;  // --config.file (default: the global flag's lookup)
};

struct TopArgs {
  bool help = false;   // -h or --help: print the usage instead
  TopOptions options;  // what the flags said, when not help
};

// top's flags, applied to `options` (the table the parser and `flightrec top --help` share).
std::vector<flags::Flag> top_flags(TopOptions& options);
// The arguments, or one line naming what was wrong.
Result<TopArgs> parse_top_args(const std::vector<std::string>& args);

// The columns a screen can be sorted by. The CPU screen's and --net's each step through theirs
// in header order with `<` and `>` (sort_columns); `total` is --net's TX+RX, marked on both.
enum class TopColumn : uint8_t {
  pid,
  user,
  cpu,
  mem,
  rss,
  virt,
  threads,
  time,
  command,
  uid,
  tx_packets,
  rx_packets,
  tx_bytes,
  rx_bytes,
  total,
};

// What the keys chose: the sorted column and direction, the help screen, quitting.
struct TopView {
  TopColumn sort = TopColumn::cpu;  // --net starts at TopColumn::total (initial_view)
  bool reversed = false;            // R: smallest first (for PID, USER, COMMAND: last first)
  bool help = false;                // h or ?: the keys instead of the table
  bool quit = false;                // q
};

// The view a screen starts with: by %CPU, or with --net by TX+RX.
TopView initial_view(bool net);
// The screen's sortable columns in header order.
std::span<const TopColumn> sort_columns(bool net);
// How a column is named in the header, the help screen and --help.
std::string_view column_name(TopColumn column);
// Applies one key press to `view`; returns whether the screen changed. While the help screen is
// shown any key returns to the table. A key the screen has no use for changes nothing.
bool apply_key(TopView& view, char key, bool net);
// The keys, one a line, as `flightrec top --help` and the help screen list them.
std::string top_keys_text();
// The help screen: the keys and what the table is sorted by now.
std::string top_help_screen(const TopView& view, bool net);

// top(1)'s summary lines, from the system sources (load average, CPU modes, memory) read by
// series name from `schema`: `now` and `before` hold one value per series (raw, as the sampler
// stores them); `before` empty or unknown values leave out what needs them.
struct TopSummary {
  std::string uptime_and_load;  // "up 3 days,  2:05,  load average: 0.82, 0.54, 0.26"
  std::string lines;            // "%Cpu(s): ...", "MiB Mem : ...", "MiB Swap: ...", each with \n
};
// `uptime_seconds` null: the title names no uptime.
TopSummary top_summary(const sampler::Schema& schema, std::span<const int64_t> before,
                       std::span<const int64_t> now, std::optional<int64_t> uptime_seconds);

// What a screen needs besides the two frames.
struct TopContext {
  uint64_t mem_total_bytes = 0;  // MemTotal, for %MEM
  std::string backend;           // network backend name, "" when none runs
  std::string note;              // e.g. why eBPF is not in use
  uint32_t limit = 0;            // rows; 0 = all
  TopView view;                  // sorted by what; the help screen is the caller's to show
  TopSummary summary;            // the CPU screen's lines under its title; empty: none
  // The CPU screen's CONTAINER column: the name of a process's container, "" for none. Unset,
  // or "" for every process shown (a host without containers): no column.
  std::function<std::string(const process::ProcessRow&)> container_of;
};

// One screen: the change from `before` to `now`, by the rule of model/process_rates.h
// (a process started since `before` counts from zero). `before` null: no rates, nothing moved.
// Rows are sorted by context.view, the sorted column marked with a * in the header.
std::string render_top(const process::ProcessFrame* before, const process::ProcessFrame& now,
                       bool net, const TopContext& context, process::UserNames& users);

// `global` carries the global flags (--config.file, --path.procfs): the config's
// processes.redact_cmdline, processes.max_count and network.backend apply to top as to the daemon.
int run_top(const TopOptions& options, const Command& global);

}  // namespace flightrec::app
