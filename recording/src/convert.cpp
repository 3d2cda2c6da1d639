#include "flightrec/recording/convert.h"

#include <array>
#include <cmath>
#include <stdexcept>

#include "container_json.h"
#include "container_names.h"
#include "flightrec/common/json_writer.h"
#include "flightrec/common/number_format.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/utf8.h"
#include "flightrec/container/frame/container_frame_codec.h"

namespace flightrec::recording {

namespace {

constexpr size_t kFlushBytes = 64 << 10;

// A series' name holds device names (a disk's, a network interface's: a root user may give one an
// escape sequence or a byte that is not UTF-8), and a CSV file is opened in terminals and
// spreadsheets: the field is written as printable UTF-8, a byte that is not UTF-8 as U+FFFD as
// JSON and /metrics write it, a control character as \xNN. RFC 4180: a field holding a comma or
// a quote is quoted, its quotes doubled.
void append_csv_field(std::string& out, std::string_view raw) {
  const std::string text = escape_unprintable(valid_utf8(raw), Newlines::escape);
  if (text.find_first_of(",\"") == std::string::npos) {
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

// Columns of a process row and of a socket row in JSON output (docs/RECORDING_FORMAT.md).
constexpr std::array<std::string_view, 29> kProcessColumns{"pid",
                                                           "ppid",
                                                           "pgrp",
                                                           "session",
                                                           "tty_nr",
                                                           "uid",
                                                           "state",
                                                           "kernel_thread",
                                                           "exited",
                                                           "comm",
                                                           "cmdline",
                                                           "cgroup",
                                                           "container_id",
                                                           "container_name",
                                                           "start_time",
                                                           "cpu_user_seconds",
                                                           "cpu_system_seconds",
                                                           "rss_bytes",
                                                           "vsz_bytes",
                                                           "threads",
                                                           "minor_faults",
                                                           "major_faults",
                                                           "io_read_bytes",
                                                           "io_write_bytes",
                                                           "net_tx_bytes",
                                                           "net_rx_bytes",
                                                           "net_tx_packets",
                                                           "net_rx_packets",
                                                           "net_device"};
constexpr std::array<std::string_view, 11> kSocketColumns{
    "protocol", "family", "state", "listening", "local",   "remote",
    "inode",    "pid",    "uid",   "tx_bytes",  "rx_bytes"};

void append_bool(std::string& out, bool value) { out += value ? "true" : "false"; }

template <typename Number>
void append_optional(std::string& out, const std::optional<Number>& value) {
  if (value) {
    append_number(out, *value);
  } else {
    out += "null";
  }
}

// Nanoseconds as seconds: the shortest decimal that reads back as the same double.
void append_seconds(std::string& out, uint64_t ns) {
  append_number(out, static_cast<double>(ns) / 1e9);
}

void append_net_object(std::string& out, const process::NetCounters& net) {
  out += "{\"tx_bytes\":";
  append_number(out, net.tx_bytes);
  out += ",\"rx_bytes\":";
  append_number(out, net.rx_bytes);
  out += ",\"tx_packets\":";
  append_number(out, net.tx_packets);
  out += ",\"rx_packets\":";
  append_number(out, net.rx_packets);
  out += '}';
}

// `container_name`: its container as container::display_name() names it, "" for the host's.
void append_process_row(std::string& out, const process::ProcessRow& row,
                        std::string_view container_name) {
  out += '[';
  for (const int64_t id : {int64_t{row.pid}, int64_t{row.ppid}, int64_t{row.pgrp},
                           int64_t{row.session}, int64_t{row.tty_nr}, int64_t{row.uid}}) {
    append_number(out, id);
    out += ',';
  }
  append_json_string(out, std::string_view(&row.state, 1));
  out += ',';
  append_bool(out, row.kernel_thread);
  out += ',';
  append_bool(out, row.exited);
  for (const auto* text : {&row.comm, &row.cmdline, &row.cgroup, &row.container_id}) {
    out += ',';
    append_json_string(out, *text);
  }
  out += ',';
  append_json_string(out, container_name);
  out += ',';
  out += format_unix_seconds(row.start_time_unix_ns);
  out += ',';
  append_seconds(out, row.cpu_user_ns);
  out += ',';
  append_seconds(out, row.cpu_system_ns);
  for (const uint64_t value :
       {row.rss_bytes, row.vsz_bytes, uint64_t{row.threads}, row.minor_faults, row.major_faults}) {
    out += ',';
    append_number(out, value);
  }
  out += ',';
  append_optional(out, row.io_read_bytes);
  out += ',';
  append_optional(out, row.io_write_bytes);
  const auto counter = [&row](uint64_t process::NetCounters::*member) {
    return row.net ? std::optional<uint64_t>((*row.net).*member) : std::nullopt;
  };
  using Net = process::NetCounters;
  for (const auto member : {&Net::tx_bytes, &Net::rx_bytes, &Net::tx_packets, &Net::rx_packets}) {
    out += ',';
    append_optional(out, counter(member));
  }
  out += ',';
  append_json_string(out, row.net_device);
  out += ']';
}

void append_socket_row(std::string& out, const process::SocketRow& socket) {
  out += socket.protocol == process::SocketProtocol::udp ? "[\"udp\"," : "[\"tcp\",";
  append_number(out, socket.family);
  out += ',';
  append_number(out, socket.state);
  out += ',';
  append_bool(out, socket.listening);
  out += ',';
  append_json_string(out, socket.local);
  out += ',';
  append_json_string(out, socket.remote);
  out += ',';
  append_number(out, socket.inode);
  out += ',';
  append_number(out, socket.pid);
  out += ',';
  append_number(out, socket.uid);
  out += ',';
  append_optional(out, socket.tx_bytes);
  out += ',';
  append_optional(out, socket.rx_bytes);
  out += ']';
}

}  // namespace

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
      container_names_(std::make_unique<detail::ContainerNames>()),
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

TextConverter::~TextConverter() = default;

void TextConverter::add_container_names(const store::StoredContainerFrame& frame) {
  if (format_ != DumpFormat::json) return;
  if (in_processes_) {
    throw std::logic_error(
        "TextConverter::add_container_names: container frames must come before process blocks");
  }
  const auto decoded = container::decode_container_frame(frame.bytes);
  if (!decoded) throw std::logic_error("TextConverter::add_container_names: " + decoded.error());
  container_names_->add(*decoded);
}

void TextConverter::write_json_header() {
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
    append_json_string(out_, sampler::kind_name(series.kind));
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
  if (in_processes_) {
    throw std::logic_error("TextConverter::add: system blocks must come before process blocks");
  }
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

void TextConverter::begin_processes() {
  in_processes_ = true;
  out_ += "\n],\n\"process_columns\":[";
  for (size_t i = 0; i < kProcessColumns.size(); ++i) {
    if (i > 0) out_ += ',';
    append_json_string(out_, kProcessColumns[i]);
  }
  out_ += "],\n\"socket_columns\":[";
  for (size_t i = 0; i < kSocketColumns.size(); ++i) {
    if (i > 0) out_ += ',';
    append_json_string(out_, kSocketColumns[i]);
  }
  out_ += "],\n\"processes\":[";
}

bool TextConverter::add_process_block(const store::ProcessBlock& block) {
  if (format_ != DumpFormat::json) return ok_;
  if (in_containers_) {
    throw std::logic_error(
        "TextConverter::add_process_block: process blocks must come before container frames");
  }
  if (!in_processes_) begin_processes();
  if (block.last_time_ns() < range_.from_real_ns || block.first_time_ns() > range_.to_real_ns) {
    return ok_;
  }
  block.for_each_frame([this](const process::ProcessFrame& frame) {
    if (range_.contains(frame.time_unix_ns)) write_process_frame(frame);
    if (out_.size() >= kFlushBytes) flush();
    return ok_ && frame.time_unix_ns <= range_.to_real_ns;
  });
  return ok_;
}

void TextConverter::write_process_frame(const process::ProcessFrame& frame) {
  out_ += first_process_frame_ ? "\n{\"time\":" : ",\n{\"time\":";
  first_process_frame_ = false;
  out_ += format_unix_seconds(frame.time_unix_ns);
  out_ += ",\"processes_dropped\":";
  append_number(out_, frame.processes_dropped);
  out_ += ",\"unattributed\":";
  if (frame.unattributed) {
    append_net_object(out_, *frame.unattributed);
  } else {
    out_ += "null";
  }
  out_ += ",\n\"processes\":[";
  for (size_t i = 0; i < frame.processes.size(); ++i) {
    out_ += i > 0 ? ",\n" : "\n";
    const auto& row = frame.processes[i];
    append_process_row(out_, row, container_names_->name_of(frame.time_unix_ns, row));
  }
  out_ += "],\n\"sockets\":[";
  for (size_t i = 0; i < frame.sockets.size(); ++i) {
    out_ += i > 0 ? ",\n" : "\n";
    append_socket_row(out_, frame.sockets[i]);
  }
  out_ += "]}";
}

void TextConverter::begin_containers() {
  if (!in_processes_) begin_processes();
  in_containers_ = true;
  out_ += "\n],\n\"container_fast_read_columns\":[";
  for (size_t i = 0; i < detail::kContainerFastReadColumns.size(); ++i) {
    if (i > 0) out_ += ',';
    append_json_string(out_, detail::kContainerFastReadColumns[i]);
  }
  out_ += "],\n\"container_episode_columns\":[";
  for (size_t i = 0; i < detail::kContainerEpisodeColumns.size(); ++i) {
    if (i > 0) out_ += ',';
    append_json_string(out_, detail::kContainerEpisodeColumns[i]);
  }
  out_ += "],\n\"containers\":[";
}

bool TextConverter::add_container_frame(const store::StoredContainerFrame& frame) {
  if (format_ != DumpFormat::json) return ok_;
  if (!in_containers_) begin_containers();
  if (!range_.contains(frame.time_unix_ns)) return ok_;
  const auto decoded = container::decode_container_frame(frame.bytes);
  if (!decoded) throw std::logic_error("TextConverter::add_container_frame: " + decoded.error());
  out_ += first_container_frame_ ? "\n" : ",\n";
  first_container_frame_ = false;
  detail::append_container_frame_json(out_, *decoded);
  if (out_.size() >= kFlushBytes) flush();
  return ok_;
}

bool TextConverter::finish() {
  if (format_ == DumpFormat::json) {
    if (!in_containers_) begin_containers();
    out_ += "\n]}\n";
  }
  return flush();
}

}  // namespace flightrec::recording
