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

// The names of the series other components read (without the flightrec_ prefix).
namespace series_names {
inline constexpr std::string_view kMemoryTotalBytes = "memory_total_bytes";
inline constexpr std::string_view kMemoryAvailableBytes = "memory_available_bytes";
inline constexpr std::string_view kMemorySwapTotalBytes = "memory_swap_total_bytes";
inline constexpr std::string_view kMemorySwapFreeBytes = "memory_swap_free_bytes";
}  // namespace series_names

// One row per field kept: its name in /proc/meminfo, its series, whether it is a size (stored
// in bytes) or a plain count, and the series' help. The values parse_meminfo writes follow this
// order.
struct MeminfoField {
  std::string_view field;
  std::string_view series;
  bool bytes;
  std::string_view help;
};
inline constexpr std::array<MeminfoField, 24> kMeminfo{{
    {"MemTotal", series_names::kMemoryTotalBytes, true, "Usable RAM (MemTotal)."},
    {"MemFree", "memory_free_bytes", true, "Unused RAM (MemFree)."},
    {"MemAvailable", series_names::kMemoryAvailableBytes, true,
     "RAM available for new work without swapping, as the kernel estimates it (MemAvailable)."},
    {"Buffers", "memory_buffers_bytes", true, "Block device buffers (Buffers)."},
    {"Cached", "memory_cached_bytes", true, "Page cache, excluding swap cache (Cached)."},
    {"SwapCached", "memory_swap_cached_bytes", true,
     "Swapped-out memory also still in RAM (SwapCached)."},
    {"Active", "memory_active_bytes", true,
     "Recently used memory, not reclaimed unless needed (Active)."},
    {"Inactive", "memory_inactive_bytes", true,
     "Less recently used memory, first to be reclaimed (Inactive)."},
    {"SwapTotal", series_names::kMemorySwapTotalBytes, true, "Swap space (SwapTotal)."},
    {"SwapFree", series_names::kMemorySwapFreeBytes, true, "Unused swap space (SwapFree)."},
    {"Dirty", "memory_dirty_bytes", true, "Memory waiting to be written back to disk (Dirty)."},
    {"Writeback", "memory_writeback_bytes", true, "Memory being written back to disk (Writeback)."},
    {"AnonPages", "memory_anon_pages_bytes", true,
     "Anonymous memory mapped into user page tables (AnonPages)."},
    {"Mapped", "memory_mapped_bytes", true, "Files mapped into memory (Mapped)."},
    {"Shmem", "memory_shmem_bytes", true, "Shared memory and tmpfs (Shmem)."},
    {"Slab", "memory_slab_bytes", true, "Kernel slab caches (Slab)."},
    {"SReclaimable", "memory_slab_reclaimable_bytes", true,
     "Reclaimable part of the slab caches (SReclaimable)."},
    {"SUnreclaim", "memory_slab_unreclaimable_bytes", true,
     "Unreclaimable part of the slab caches (SUnreclaim)."},
    {"KernelStack", "memory_kernel_stack_bytes", true, "Kernel stacks of all tasks (KernelStack)."},
    {"PageTables", "memory_page_tables_bytes", true, "Page tables (PageTables)."},
    {"Committed_AS", "memory_committed_as_bytes", true,
     "Memory committed to allocations, an estimate of what would be needed to never OOM "
     "(Committed_AS)."},
    {"HugePages_Total", "memory_huge_pages", false, "Huge pages in the pool (HugePages_Total)."},
    {"HugePages_Free", "memory_huge_pages_free", false,
     "Huge pages in the pool not yet allocated (HugePages_Free)."},
    {"Hugepagesize", "memory_huge_page_size_bytes", true, "Default huge page size (Hugepagesize)."},
}};

// The field names alone, in the same order.
inline constexpr std::array<std::string_view, kMeminfo.size()> kMeminfoFields = [] {
  std::array<std::string_view, kMeminfo.size()> names{};
  for (size_t i = 0; i < kMeminfo.size(); ++i) names[i] = kMeminfo[i].field;
  return names;
}();

// Fills `out` from /proc/meminfo bytes: kB values * 1024, bare numbers as they are; a field that is
// missing or malformed stays kAbsent (partial). Never allocates.
SampleStatus parse_meminfo(std::string_view text,
                           std::span<int64_t, kMeminfoFields.size()> out) noexcept;

// Throws std::runtime_error naming the file when it cannot be opened or read.
std::unique_ptr<Source> make_meminfo_source(const ProcRoot& root);

}  // namespace flightrec::sampler
