#pragma once
// "vmstat": /proc/vmstat — a few event counters: page faults, swap and paging traffic, OOM kills.
// Stored as the kernel counts them (events, pages for pswp*, KiB for pgpg*); the series' scale
// turns pages and KiB into bytes.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

// What one counter counts, which decides its series' unit and scale.
enum class VmstatUnit : uint8_t {
  events,  // plain counts
  pages,   // bytes = pages * the page size (known at run time)
  kib,     // bytes = KiB * 1024 (pgpgin/pgpgout: the kernel halves its 512-byte sector count)
};

namespace series_names {
inline constexpr std::string_view kOomKillsTotal = "oom_kills_total";
}  // namespace series_names

// One row per counter kept: its name in /proc/vmstat, its series (without the flightrec_ prefix),
// its unit and the series' help. The values parse_vmstat writes follow this order.
struct VmstatField {
  std::string_view field;
  std::string_view series;
  VmstatUnit unit;
  std::string_view help;
};
inline constexpr std::array<VmstatField, 7> kVmstat{{
    {"pgfault", "page_faults_total", VmstatUnit::events, "Page faults, minor and major (pgfault)."},
    {"pgmajfault", "major_page_faults_total", VmstatUnit::events,
     "Page faults that needed I/O (pgmajfault)."},
    {"pswpin", "swap_in_bytes_total", VmstatUnit::pages,
     "Memory swapped in from swap space (pswpin, in pages)."},
    {"pswpout", "swap_out_bytes_total", VmstatUnit::pages,
     "Memory swapped out to swap space (pswpout, in pages)."},
    {"pgpgin", "paged_in_bytes_total", VmstatUnit::kib,
     "Data paged in from block devices (pgpgin, in KiB)."},
    {"pgpgout", "paged_out_bytes_total", VmstatUnit::kib,
     "Data paged out to block devices (pgpgout, in KiB)."},
    {"oom_kill", series_names::kOomKillsTotal, VmstatUnit::events,
     "Processes killed by the kernel's OOM killer (oom_kill)."},
}};

// The counter names alone, in the same order.
inline constexpr std::array<std::string_view, kVmstat.size()> kVmstatFields = [] {
  std::array<std::string_view, kVmstat.size()> names{};
  for (size_t i = 0; i < kVmstat.size(); ++i) names[i] = kVmstat[i].field;
  return names;
}();

// Fills `out` from /proc/vmstat bytes; a missing or malformed counter stays kAbsent (partial).
SampleStatus parse_vmstat(std::string_view text,
                          std::span<int64_t, kVmstatFields.size()> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::unique_ptr<Source> make_vmstat_source(const ProcRoot& root);

}  // namespace flightrec::sampler
