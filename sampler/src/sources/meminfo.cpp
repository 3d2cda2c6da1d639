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

constexpr std::array<detail::SeriesInfo, kMeminfo.size()> kSeries = [] {
  std::array<detail::SeriesInfo, kMeminfo.size()> series{};
  for (size_t i = 0; i < kMeminfo.size(); ++i) {
    const MeminfoField& row = kMeminfo[i];
    series[i] = {row.series, SeriesKind::gauge, row.bytes ? "bytes" : "", 1.0, row.help};
  }
  return series;
}();

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
      "meminfo", std::string(kSourcePath), kSeries,
      FileReader(root.proc("meminfo"), 4096, FileEnd::at_short_read));
}

}  // namespace flightrec::sampler
