#pragma once
// `flightrec replay SOURCE [flags]`: its own flag table, read by the one flag parser
// (common/flags.h); the main command line hands everything after `replay` to it.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/flags.h"
#include "flightrec/common/result.h"
#include "flightrec/replay/batch.h"
#include "flightrec/replay/credentials.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/table.h"

namespace flightrec::replay {

inline constexpr int64_t kDefaultIntervalNs = 1'000'000'000;

struct ReplayOptions {
  std::string source;  // a recording file or an http(s):// URL (/dump?..., /incidents/{id})
  CredentialFlags credentials;  // for a URL source of a secured daemon
  bool batch = false;
  std::string at;  // cursor time (parse_cursor_time); "" = the trigger if any, else the end
  Tab tab = Tab::processes;
  std::string sort;      // column name; "" = the tab's default
  bool reverse = false;  // against the column's natural order (--reverse)
  std::string filter;
  bool tree = false;
  BatchFormat format = BatchFormat::text;
  int64_t interval_ns = kDefaultIntervalNs;   // what rates cover; 0 = one sample
  int64_t grow_span_ns = kDefaultGrowSpanNs;  // what RGROW covers; kWholeRecording = "all"
};

struct ReplayArgs {
  bool help = false;      // -h or --help: print the usage instead
  ReplayOptions options;  // what the flags said, when not help
};

std::vector<flags::Flag> replay_flags(ReplayOptions& options);
// The arguments, or one line naming the flag or value that was wrong.
Result<ReplayArgs> parse_replay_args(std::span<const std::string_view> args);
std::string replay_usage();

}  // namespace flightrec::replay
