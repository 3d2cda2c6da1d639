#include "flightrec/sampler/sources/pressure.h"

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include "flightrec/common/log.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;
constexpr size_t kFiles = kPressureResources.size();

using Readers = std::array<std::optional<FileReader>, kFiles>;

class PressureSource final : public Source {
 public:
  explicit PressureSource(Readers readers) : readers_(std::move(readers)) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "pressure"; }

  void describe(Schema& out) const override {
    const detail::SeriesInfo some{
        series_names::kPressureSomeSecondsTotal, SeriesKind::counter, "seconds",
        kSecondsPerMicrosecond,
        "Time at least one task was stalled on the resource (PSI some total)."};
    const detail::SeriesInfo full{
        series_names::kPressureFullSecondsTotal, SeriesKind::counter, "seconds",
        kSecondsPerMicrosecond,
        "Time all non-idle tasks were stalled on the resource at once (PSI full total)."};
    for (const std::string_view resource : kPressureResources) {
      const std::string path = "/proc/pressure/" + std::string(resource);
      out.push_back(detail::make_series(
          some, path, {{std::string(kPressureResourceLabel), std::string(resource)}}));
      out.push_back(detail::make_series(
          full, path, {{std::string(kPressureResourceLabel), std::string(resource)}}));
    }
  }

  SampleStatus sample(std::span<int64_t> out) noexcept override {
    parsing::fill_absent(out);
    if (out.size() != kFiles * kPressureValuesPerFile) return SampleStatus::failed;
    for (size_t i = 0; i < kFiles; ++i) {
      std::string_view text;
      if (readers_[i] && readers_[i]->read(text)) {
        parse_pressure(text,
                       out.subspan(i * kPressureValuesPerFile).first<kPressureValuesPerFile>());
      }
    }
    return parsing::status_of(out);
  }

 private:
  Readers readers_;  // empty where the file could not be opened
};

}  // namespace

SampleStatus parse_pressure(std::string_view text,
                            std::span<int64_t, kPressureValuesPerFile> out) noexcept {
  parsing::fill_absent(out);
  std::string_view line;
  while (parsing::next_line(text, line)) {
    const std::string_view kind = parsing::next_token(line);
    const bool some = kind == "some";
    if (!some && kind != "full") continue;
    const size_t index = some ? 0 : 1;
    // "avg10=0.00 avg60=0.00 avg300=0.00 total=1234"
    for (std::string_view field = parsing::next_token(line); !field.empty();
         field = parsing::next_token(line)) {
      if (!field.starts_with("total=")) continue;
      field.remove_prefix(6);
      int64_t total = 0;
      if (parsing::read_digits(field, total) && field.empty()) out[index] = total;
      break;
    }
  }
  return parsing::status_of(out);
}

std::unique_ptr<Source> make_pressure_source(const ProcRoot& root) {
  const std::filesystem::path dir = root.proc("pressure");
  if (!std::filesystem::is_directory(dir)) {
    throw SourceUnavailable(dir.string() + " not present");
  }
  Readers readers;
  size_t opened = 0;
  for (size_t i = 0; i < kFiles; ++i) {
    const std::filesystem::path path = dir / kPressureResources[i];
    try {
      readers[i].emplace(
          path, 4096,
          FileEnd::at_short_read);  // also reads once: fails when PSI is disabled at boot
      ++opened;
    } catch (const std::system_error& e) {
      log::warn("pressure file unreadable, its series stay absent",
                {{"file", path.string()}, {"error", e.what()}});
    }
  }
  if (opened == 0) throw SourceUnavailable(dir.string() + " has no readable file (PSI disabled?)");
  return std::make_unique<PressureSource>(std::move(readers));
}

}  // namespace flightrec::sampler
