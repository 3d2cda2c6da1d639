#pragma once
// "meminfo": /proc/meminfo — selected memory fields, stored as bytes (the kernel's kB * 1024),
// except the HugePages_* counts, which are plain numbers of pages.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"

namespace flightrec::sampler {

// The fields kept, in the order of the values parse_meminfo writes.
inline constexpr std::array<std::string_view, 24> kMeminfoFields{
    "MemTotal",     "MemFree",         "MemAvailable",   "Buffers",     "Cached",
    "SwapCached",   "Active",          "Inactive",       "SwapTotal",   "SwapFree",
    "Dirty",        "Writeback",       "AnonPages",      "Mapped",      "Shmem",
    "Slab",         "SReclaimable",    "SUnreclaim",     "KernelStack", "PageTables",
    "Committed_AS", "HugePages_Total", "HugePages_Free", "Hugepagesize"};

// Fills `out` from /proc/meminfo bytes: kB values * 1024, bare numbers as they are; a field that is
// missing or malformed stays kAbsent (partial). Never allocates.
SampleStatus parse_meminfo(std::string_view text,
                           std::span<int64_t, kMeminfoFields.size()> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::unique_ptr<Source> make_meminfo_source(const ProcRoot& root);

}  // namespace flightrec::sampler
