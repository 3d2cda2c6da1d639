#include "flightrec/sampler/sources/meminfo.h"

#include <utility>

#include "file_source.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr std::string_view kSourcePath = "/proc/meminfo";
constexpr parsing::NameIndex<kMeminfoFields.size()> kFieldIndex(kMeminfoFields);
constexpr int64_t kBytesPerKb = 1024;

// Same order as kMeminfoFields.
constexpr std::array<detail::SeriesInfo, kMeminfoFields.size()> kSeries{{
    {"memory_total_bytes", SeriesKind::gauge, "bytes", 1.0, "Usable RAM (MemTotal)."},
    {"memory_free_bytes", SeriesKind::gauge, "bytes", 1.0, "Unused RAM (MemFree)."},
    {"memory_available_bytes", SeriesKind::gauge, "bytes", 1.0,
     "RAM available for new work without swapping, as the kernel estimates it (MemAvailable)."},
    {"memory_buffers_bytes", SeriesKind::gauge, "bytes", 1.0, "Block device buffers (Buffers)."},
    {"memory_cached_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Page cache, excluding swap cache "
     "(Cached)."},
    {"memory_swap_cached_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Swapped-out memory also still in RAM (SwapCached)."},
    {"memory_active_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Recently used memory, not reclaimed unless needed (Active)."},
    {"memory_inactive_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Less recently used memory, first to be reclaimed (Inactive)."},
    {"memory_swap_total_bytes", SeriesKind::gauge, "bytes", 1.0, "Swap space (SwapTotal)."},
    {"memory_swap_free_bytes", SeriesKind::gauge, "bytes", 1.0, "Unused swap space (SwapFree)."},
    {"memory_dirty_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Memory waiting to be written back to disk (Dirty)."},
    {"memory_writeback_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Memory being written back to disk (Writeback)."},
    {"memory_anon_pages_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Anonymous memory mapped into user page tables (AnonPages)."},
    {"memory_mapped_bytes", SeriesKind::gauge, "bytes", 1.0, "Files mapped into memory (Mapped)."},
    {"memory_shmem_bytes", SeriesKind::gauge, "bytes", 1.0, "Shared memory and tmpfs (Shmem)."},
    {"memory_slab_bytes", SeriesKind::gauge, "bytes", 1.0, "Kernel slab caches (Slab)."},
    {"memory_slab_reclaimable_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Reclaimable part of the slab caches (SReclaimable)."},
    {"memory_slab_unreclaimable_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Unreclaimable part of the slab caches (SUnreclaim)."},
    {"memory_kernel_stack_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Kernel stacks of all tasks (KernelStack)."},
    {"memory_page_tables_bytes", SeriesKind::gauge, "bytes", 1.0, "Page tables (PageTables)."},
    {"memory_committed_as_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Memory committed to allocations, an estimate of what would be needed to never OOM "
     "(Committed_AS)."},
    {"memory_huge_pages", SeriesKind::gauge, "", 1.0, "Huge pages in the pool (HugePages_Total)."},
    {"memory_huge_pages_free", SeriesKind::gauge, "", 1.0,
     "Huge pages in the pool not yet allocated (HugePages_Free)."},
    {"memory_huge_page_size_bytes", SeriesKind::gauge, "bytes", 1.0,
     "Default huge page size (Hugepagesize)."},
}};

// "Name:   123 kB" or "Name:   123": the value in bytes when it carries kB, else as written.
bool read_value(std::string_view rest, int64_t& value) noexcept {
  int64_t number = 0;
  if (!parsing::read_count(rest, number)) return false;
  const std::string_view unit = parsing::next_token(rest);
  if (unit.empty()) {
    value = number;
    return true;
  }
  if (unit != "kB") return false;
  value = parsing::scaled_or_absent(number, kBytesPerKb);
  return true;
}

}  // namespace

SampleStatus parse_meminfo(std::string_view text,
                           std::span<int64_t, kMeminfoFields.size()> out) noexcept {
  parsing::fill_absent(out);
  size_t found = 0;
  std::string_view line;
  while (found < out.size() && parsing::next_line(text, line)) {
    if (line.empty() || !kFieldIndex.may_start_with(line.front())) continue;
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const int field = kFieldIndex.find(line.substr(0, colon));
    if (field == parsing::NameIndex<kMeminfoFields.size()>::kNotFound) continue;
    int64_t& value = out[static_cast<size_t>(field)];
    if (value == kAbsent && read_value(line.substr(colon + 1), value)) ++found;
  }
  return parsing::status_of(out);
}

std::unique_ptr<Source> make_meminfo_source(const ProcRoot& root) {
  return std::make_unique<detail::FileSource<kMeminfoFields.size(), parse_meminfo>>(
      "meminfo", std::string(kSourcePath), kSeries, FileReader(root.proc("meminfo")));
}

}  // namespace flightrec::sampler
