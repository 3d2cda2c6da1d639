#include "flightrec/sampler/sources/vmstat.h"

#include <unistd.h>

#include <stdexcept>
#include <utility>

#include "file_source.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr std::string_view kSourcePath = "/proc/vmstat";
constexpr parsing::NameIndex<kVmstatFields.size()> kFieldIndex(kVmstatFields);
constexpr double kBytesPerKib = 1024.0;

// The series of kVmstat; swap counters are in pages, whose size is known only at run time.
std::array<detail::SeriesInfo, kVmstat.size()> series_table(double page_bytes) {
  std::array<detail::SeriesInfo, kVmstat.size()> series{};
  for (size_t i = 0; i < kVmstat.size(); ++i) {
    const VmstatField& row = kVmstat[i];
    const double scale = row.unit == VmstatUnit::pages ? page_bytes
                         : row.unit == VmstatUnit::kib ? kBytesPerKib
                                                       : 1.0;
    series[i] = {row.series, SeriesKind::counter, row.unit == VmstatUnit::events ? "" : "bytes",
                 scale, row.help};
  }
  return series;
}

}  // namespace

SampleStatus parse_vmstat(std::string_view text,
                          std::span<int64_t, kVmstatFields.size()> out) noexcept {
  parsing::fill_absent(out);
  size_t found = 0;
  std::string_view line;
  // The file has ~200 lines; stop as soon as every kept counter is in.
  while (found < out.size() && parsing::next_line(text, line)) {
    if (line.empty() || !kFieldIndex.may_start_with(line.front())) continue;
    const std::string_view name = parsing::next_token(line);
    const int field = kFieldIndex.find(name);
    if (field == parsing::NameIndex<kVmstatFields.size()>::kNotFound) continue;
    int64_t& value = out[static_cast<size_t>(field)];
    if (value == kAbsent && parsing::read_count(line, value)) ++found;
  }
  return parsing::status_of(out);
}

std::unique_ptr<Source> make_vmstat_source(const ProcRoot& root) {
  FileReader reader(root.proc("vmstat"));
  const long page_bytes = ::sysconf(_SC_PAGESIZE);
  if (page_bytes <= 0) throw std::runtime_error("sysconf(_SC_PAGESIZE) failed");
  return std::make_unique<detail::FileSource<kVmstatFields.size(), parse_vmstat>>(
      "vmstat", std::string(kSourcePath), series_table(static_cast<double>(page_bytes)),
      std::move(reader));
}

}  // namespace flightrec::sampler
