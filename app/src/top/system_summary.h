#pragma once
// The system side of `flightrec top`'s summary: the system sources opened as the daemon opens
// them (under --path.procfs), read once per screen, and the summary over the interval between
// two reads (top_summary).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/app/top.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/sampler.h"

namespace flightrec::app::detail {

class SystemSummary {
 public:
  // A source that cannot be read leaves out what needs it; none at all, the summary lines.
  SystemSummary(const sampler::ProcRoot& root, const config::Config& config);

  // Reads every source; the summary since the previous call (the first has no CPU split).
  TopSummary sample();

 private:
  std::unique_ptr<sampler::Sampler> sampler_;  // null: the sources could not be opened
  std::optional<int64_t> boot_time_s_;         // Unix seconds, from <procfs>/stat's btime
  std::vector<int64_t> before_;
  std::vector<int64_t> now_;
};

}  // namespace flightrec::app::detail
