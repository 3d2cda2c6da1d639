#include "flightrec/recording/convert.h"

#include <charconv>
#include <cmath>

#include "flightrec/snapshot/json_writer.h"

namespace flightrec::recording {

namespace {

constexpr size_t kFlushBytes = 64 << 10;

std::string_view kind_name(sampler::SeriesKind kind) {
  return kind == sampler::SeriesKind::counter ? "counter" : "gauge";
}

// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
void append_csv_field(std::string& out, std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out += '"';
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

template <typename Number>
void append_number(std::string& out, Number value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

}  // namespace

std::optional<DumpFormat> parse_dump_format(std::string_view name) {
  if (name == "json") return DumpFormat::json;
  if (name == "csv") return DumpFormat::csv;
  if (name == "raw") return DumpFormat::raw;
  return std::nullopt;
}

std::string_view content_type(DumpFormat format) {
  switch (format) {
    case DumpFormat::json:
      return "application/json";
    case DumpFormat::csv:
      return "text/csv; charset=utf-8; header=present";
    case DumpFormat::raw:
      break;
  }
  return "application/octet-stream";
}

std::string format_unix_seconds(int64_t real_ns) {
  constexpr int64_t kNsPerSecond = 1'000'000'000;
  int64_t seconds = real_ns / kNsPerSecond;
  int64_t rest = real_ns % kNsPerSecond;
  if (rest < 0) {
    seconds -= 1;
    rest += kNsPerSecond;
  }
  std::string micros = std::to_string(rest / 1000);
  return std::to_string(seconds) + "." + std::string(6 - micros.size(), '0') + micros;
}

TextConverter::TextConverter(DumpFormat format, const Metadata& metadata, store::TimeRange range,
                             Sink sink)
    : format_(format),
      metadata_(metadata),
      range_(range),
      sink_(std::move(sink)),
      row_(metadata.series.size()),
      divisors_(metadata.series.size()) {
  for (size_t i = 0; i < divisors_.size(); ++i) {
    const double scale = metadata.series[i].scale;
    const double inverse = 1.0 / scale;
    const bool whole = scale > 0 && scale < 1 && std::isfinite(inverse) &&
                       std::abs(inverse - std::round(inverse)) < 1e-9 * inverse;
    divisors_[i] = whole ? std::round(inverse) : 0.0;
  }
  if (format_ == DumpFormat::json) {
    write_json_header();
  } else {
    write_csv_header();
  }
}

void TextConverter::write_json_header() {
  using snapshot::append_json_string;
  out_ += "{\"schema_version\":" + std::to_string(kJsonSchemaVersion) + ",\"host\":";
  append_json_string(out_, metadata_.host);
  out_ += ",\"flightrec_version\":";
  append_json_string(out_, metadata_.flightrec_version);
  out_ += ",\"resolution_seconds\":";
  append_number(out_, static_cast<double>(metadata_.rate_ns) / 1e9);
  out_ += ",\n\"metadata\":{";
  for (size_t i = 0; i < metadata_.extra.size(); ++i) {
    if (i > 0) out_ += ',';
    append_json_string(out_, metadata_.extra[i].first);
    out_ += ':';
    append_json_string(out_, metadata_.extra[i].second);
  }
  out_ += "},\n\"series\":[";
  for (size_t i = 0; i < metadata_.series.size(); ++i) {
    const auto& series = metadata_.series[i];
    out_ += i > 0 ? ",\n" : "\n";
    out_ += "{\"name\":";
    append_json_string(out_, series.name);
    out_ += ",\"labels\":{";
    for (size_t l = 0; l < series.labels.size(); ++l) {
      if (l > 0) out_ += ',';
      append_json_string(out_, series.labels[l].first);
      out_ += ':';
      append_json_string(out_, series.labels[l].second);
    }
    out_ += "},\"unit\":";
    append_json_string(out_, series.unit);
    out_ += ",\"kind\":";
    append_json_string(out_, kind_name(series.kind));
    out_ += ",\"source\":";
    append_json_string(out_, series.source);
    out_ += '}';
  }
  out_ += "],\n\"columns\":[\"time\"";
  for (const auto& series : metadata_.series) {
    out_ += ',';
    append_json_string(out_, series_identity(series));
  }
  out_ += "],\n\"rows\":[";
}

void TextConverter::write_csv_header() {
  out_ += "time";
  for (const auto& series : metadata_.series) {
    out_ += ',';
    append_csv_field(out_, series_identity(series));
  }
  out_ += "\r\n";
}

void TextConverter::append_value(int64_t stored, size_t series_index) {
  if (stored == sampler::kAbsent) {
    if (format_ == DumpFormat::json) out_ += "null";
    return;
  }
  const double scale = metadata_.series[series_index].scale;
  if (scale == 1.0) {
    append_number(out_, stored);
  } else if (divisors_[series_index] != 0.0) {
    append_number(out_, static_cast<double>(stored) / divisors_[series_index]);
  } else {
    append_number(out_, static_cast<double>(stored) * scale);
  }
}

void TextConverter::write_row(int64_t real_ns) {
  const bool json = format_ == DumpFormat::json;
  if (json) out_ += first_row_ ? "\n[" : ",\n[";
  first_row_ = false;
  out_ += format_unix_seconds(real_ns);
  for (size_t i = 0; i < row_.size(); ++i) {
    out_ += ',';
    append_value(row_[i], i);
  }
  out_ += json ? "]" : "\r\n";
}

bool TextConverter::add(const std::shared_ptr<const store::Block>& block) {
  store::Cursor cursor({block}, range_);
  while (ok_ && cursor.next()) {
    cursor.values(row_);
    write_row(cursor.real_ns());
    if (out_.size() >= kFlushBytes) flush();
  }
  return ok_;
}

bool TextConverter::flush() {
  if (ok_ && !out_.empty()) ok_ = sink_(out_);
  out_.clear();
  return ok_;
}

bool TextConverter::finish() {
  if (format_ == DumpFormat::json) out_ += "\n]}\n";
  return flush();
}

}  // namespace flightrec::recording
