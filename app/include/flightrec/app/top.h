#pragma once
// `flightrec top [--net]`: a refreshing table of processes, like top(1), or of per-process network
// traffic, like the classic nettop. Sampling runs in this process (no daemon needed); the table
// logic is pure so it is unit-tested on hand-made frames.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/app/cli.h"
#include "flightrec/common/flags.h"
#include "flightrec/process/process_frame.h"
#include "flightrec/process/user_names.h"

namespace flightrec::app {

struct TopOptions {
  bool net = false;         // --net: traffic per process instead of CPU and memory
  bool batch = false;       // --batch (-b): plain output for scripts, no screen clearing
  uint32_t iterations = 0;  // -n N: screens to print; 0 runs until interrupted
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

// What a screen needs besides the two frames.
struct TopContext {
  uint64_t mem_total_bytes = 0;  // MemTotal, for %MEM
  std::string backend;           // network backend name, "" when none runs
  std::string note;              // e.g. why eBPF is not in use
  uint32_t limit = 0;            // rows; 0 = all
};

// One screen: the change from `before` to `now`, by the rule of model/process_rates.h
// (a process started since `before` counts from zero). `before` null: no rates, nothing moved.
std::string render_top(const process::ProcessFrame* before, const process::ProcessFrame& now,
                       bool net, const TopContext& context, process::UserNames& users);

// `global` carries the global flags (--config.file, --path.procfs): the config's
// processes.redact_cmdline, processes.max_count and network.backend apply to top as to the daemon.
int run_top(const TopOptions& options, const Command& global);

}  // namespace flightrec::app
