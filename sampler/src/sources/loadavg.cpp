#include "flightrec/sampler/sources/loadavg.h"

#include <array>
#include <limits>
#include <utility>

#include "file_source.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr std::string_view kSourcePath = "/proc/loadavg";
constexpr double kHundredth = 0.01;

constexpr std::array<detail::SeriesInfo, kLoadavgValues> kSeries{{
    {series_names::kLoad1, SeriesKind::gauge, "", kHundredth,
     "1-minute load average (updated every 5 s)."},
    {series_names::kLoad5, SeriesKind::gauge, "", kHundredth,
     "5-minute load average (updated every 5 s)."},
    {series_names::kLoad15, SeriesKind::gauge, "", kHundredth,
     "15-minute load average (updated every 5 s)."},
    {"threads_runnable", SeriesKind::gauge, "", 1.0,
     "Threads runnable right now, from /proc/loadavg."},
    {"threads", SeriesKind::gauge, "", 1.0, "Threads that exist, from /proc/loadavg."},
}};

// "12.34" -> 1234. Blank-prefixed; exactly two decimals, as the kernel prints them.
bool read_hundredths(std::string_view& s, int64_t& value) noexcept {
  parsing::skip_blanks(s);
  int64_t whole = 0;
  if (!parsing::read_digits(s, whole) || s.size() < 3 || s[0] != '.') return false;
  std::string_view decimals = s.substr(1, 2);
  int64_t fraction = 0;
  if (!parsing::read_digits(decimals, fraction) || !decimals.empty()) return false;
  s.remove_prefix(3);
  if (!s.empty() && !parsing::is_blank(s.front())) return false;
  if (whole > (std::numeric_limits<int64_t>::max() - 99) / 100) return false;
  value = whole * 100 + fraction;
  return true;
}

}  // namespace

SampleStatus parse_loadavg(std::string_view text, std::span<int64_t, kLoadavgValues> out) noexcept {
  parsing::fill_absent(out);
  std::string_view line;
  parsing::next_line(text, line);
  for (size_t i = 0; i < 3; ++i) {
    if (!read_hundredths(line, out[i])) return parsing::status_of(out);
  }
  // "runnable/total"
  parsing::skip_blanks(line);
  int64_t runnable = 0;
  if (!parsing::read_digits(line, runnable) || line.empty() || line.front() != '/') {
    return parsing::status_of(out);
  }
  out[3] = runnable;
  line.remove_prefix(1);
  parsing::read_count(line, out[4]);
  return parsing::status_of(out);
}

std::unique_ptr<Source> make_loadavg_source(const ProcRoot& root) {
  return std::make_unique<detail::FileSource<kLoadavgValues, parse_loadavg>>(
      "loadavg", std::string(kSourcePath), kSeries,
      FileReader(root.proc("loadavg"), 4096, FileEnd::at_short_read));
}

}  // namespace flightrec::sampler
