#include "system_summary.h"

#include <time.h>

#include <stdexcept>

#include "flightrec/process/boot_time.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/system_sources.h"

namespace flightrec::app::detail {

SystemSummary::SystemSummary(const sampler::ProcRoot& root, const config::Config& config) {
  // top still shows processes without these; the summary lines they would fill are left out.
  try {
    boot_time_s_ = process::parse_boot_time(sampler::read_file(root.proc("stat")));
  } catch (const std::exception&) {
  }
  try {
    sampler_ = std::make_unique<sampler::Sampler>(
        sampler::open_system_sources(root, config.sources).sources, config.sampler.rate);
  } catch (const std::exception&) {
  }
}

TopSummary SystemSummary::sample() {
  if (!sampler_) return {};
  std::swap(before_, now_);
  now_.assign(sampler_->schema().size(), sampler::kAbsent);
  sampler_->sample_once(now_);
  std::optional<int64_t> uptime;
  if (boot_time_s_) {
    timespec real{};
    clock_gettime(CLOCK_REALTIME, &real);
    uptime = static_cast<int64_t>(real.tv_sec) - *boot_time_s_;
  }
  return top_summary(sampler_->schema(), before_, now_, uptime);
}

}  // namespace flightrec::app::detail
