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

// The counters kept, in the order of the values parse_vmstat writes.
inline constexpr std::array<std::string_view, 7> kVmstatFields{
    "pgfault", "pgmajfault", "pswpin", "pswpout", "pgpgin", "pgpgout", "oom_kill"};

// Fills `out` from /proc/vmstat bytes; a missing or malformed counter stays kAbsent (partial).
SampleStatus parse_vmstat(std::string_view text,
                          std::span<int64_t, kVmstatFields.size()> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::unique_ptr<Source> make_vmstat_source(const ProcRoot& root);

}  // namespace flightrec::sampler
