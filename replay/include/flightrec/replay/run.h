#pragma once
// `flightrec replay`: load the source (file or URL), then either print one view (--batch) or run
// the interactive view. The exporter's main dispatches here.
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/replay/http_fetch.h"
#include "flightrec/replay/options.h"
#include "flightrec/replay/replay_data.h"

namespace flightrec::replay {

// A recording file, or an http(s):// URL fetched once into memory (with `credentials`); or one
// line naming the file or URL and what was wrong with it.
Result<ReplayData> load_source(const std::string& source,
                               const ClientCredentials& credentials = {});

// Exit status: 0; 1 after one error line on `err` about the source (unreadable, not a
// recording, damaged); 2 for a flag value the recording cannot take (an --at that is not a time,
// a --sort column the tab does not have), a usage error as the main command line's. A time
// outside the recording is clamped, with a note on `err` in batch mode.
int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err);

// Parses the arguments after `replay` and runs: 2 on a usage error (as the main command line).
int replay_command(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

}  // namespace flightrec::replay
