#include "flightrec/container/cgroups/cpu_files.h"

#include <array>

#include "flightrec/common/printable.h"
#include "flightrec/container/cgroups/value_files.h"
#include "keyed_lines.h"

namespace flightrec::container {
namespace {

using detail::KeyedField;

constexpr int64_t kNanosecondsPerMicrosecond = 1000;

// v1's and v2's names side by side: no name is in both with different meanings.
constexpr std::array<KeyedField<CpuStat>, 10> kCpuStatFields{{
    {"usage_usec", &CpuStat::usage_us},
    {"user_usec", &CpuStat::user_us},
    {"system_usec", &CpuStat::system_us},
    {"nr_periods", &CpuStat::periods},
    {"nr_throttled", &CpuStat::throttled_periods},
    {"throttled_usec", &CpuStat::throttled_us},
    {"throttled_time", &CpuStat::throttled_us, kNanosecondsPerMicrosecond},
    {"nr_bursts", &CpuStat::bursts},
    {"burst_usec", &CpuStat::burst_us},
    {"burst_time", &CpuStat::burst_us, kNanosecondsPerMicrosecond},
}};

constexpr std::array<KeyedField<CpuacctTicks>, 2> kCpuacctFields{{
    {"user", &CpuacctTicks::user},
    {"system", &CpuacctTicks::system},
}};

}  // namespace

Result<CpuStat> parse_cpu_stat(std::string_view text) {
  return detail::parse_keyed(text, kCpuStatFields, "cpu.stat");
}

Result<CpuBandwidth> parse_cpu_max(std::string_view text) {
  const std::string_view whole = text.ends_with('\n') ? text.substr(0, text.size() - 1) : text;
  std::string_view rest = whole;
  const std::string_view quota = sampler::parsing::next_token(rest);
  const std::string_view period = sampler::parsing::next_token(rest);
  sampler::parsing::skip_blanks(rest);
  const auto bad = [&] {
    return Error{quote_for_error(whole, {.max_bytes = 40}) + " is not \"<quota|max> <period>\""};
  };
  if (quota.empty() || period.empty() || !rest.empty()) return bad();
  const Result<int64_t> quota_us = parse_cgroup_limit(quota);
  const Result<int64_t> period_us = parse_cgroup_count(period);
  if (!quota_us || !period_us) return bad();
  return CpuBandwidth{*quota_us, *period_us};
}

Result<int64_t> parse_cfs_quota(std::string_view text) {
  const std::string_view value = text.ends_with('\n') ? text.substr(0, text.size() - 1) : text;
  if (value == "-1") return kUnlimited;
  Result<int64_t> quota = parse_cgroup_count(value);
  if (!quota) return Error{quota.error() + " (a quota is a count of µs or -1)"};
  return quota;
}

Result<CpuacctTicks> parse_cpuacct_stat(std::string_view text) {
  return detail::parse_keyed(text, kCpuacctFields, "cpuacct.stat");
}

}  // namespace flightrec::container
