#include <fstream>
#include <sstream>

#include "flightrec/common/printable.h"
#include "flightrec/recording/convert.h"

namespace flightrec::recording {
namespace {

// Puts `in` back at its first byte for one more pass.
bool rewind(std::istream& in) {
  in.clear();
  in.seekg(0);
  return static_cast<bool>(in);
}

// Converts the verified recording `in` holds: its system blocks, then (JSON) its process blocks in
// a second pass, so memory stays bounded by one block.
std::string convert_recording(std::istream& in, DumpFormat format, store::TimeRange range,
                              Sink sink) {
  RecordingReader reader(in);
  if (!in || !reader.open()) return "changed while being read: " + reader.error();
  TextConverter converter(format, reader.metadata(), range, std::move(sink));
  bool sink_ok = true;
  while (const auto block = reader.next()) {
    if (!(sink_ok = converter.add(block))) break;
  }
  if (sink_ok && !reader.complete()) return "changed while being read: " + reader.error();
  if (sink_ok && format == DumpFormat::json && reader.format_version() >= 2) {
    if (!rewind(in)) return "cannot read it a second time";
    RecordingReader processes(in);
    if (!processes.open()) return "changed while being read: " + processes.error();
    while (const auto record = processes.next_record()) {
      if (record.process_block && !(sink_ok = converter.add_process_block(*record.process_block))) {
        break;
      }
    }
    if (sink_ok && !processes.complete()) {
      return "changed while being read: " + processes.error();
    }
  }
  if (!sink_ok || !converter.finish()) return "cannot write the output";
  return {};
}

// A pipe (`cat rec | flightrec dump /dev/stdin`) or a device can be read only once, so its bytes
// are read into memory and the passes read them from there, as replay reads every recording.
std::unique_ptr<std::istream> open_for_passes(const std::filesystem::path& path) {
  std::error_code ignored;
  auto file = std::make_unique<std::ifstream>(path, std::ios::binary);
  if (std::filesystem::is_regular_file(path, ignored)) return file;
  std::ostringstream bytes;
  bytes << file->rdbuf();  // an empty input sets failbit on `bytes`: its empty string is the answer
  return std::make_unique<std::istringstream>(std::move(bytes).str());
}

// "<file>: <what went wrong>" for the terminal: a file's name is any bytes but '/' and NUL, so
// the line is made printable, each control character and byte that is not UTF-8 as \xNN.
std::string failure(const std::filesystem::path& path, std::string_view what) {
  return escape_unprintable(path.string() + ": " + std::string(what), Newlines::escape) + "\n";
}

}  // namespace

std::string convert_recording_file(const std::filesystem::path& path, DumpFormat format,
                                   store::TimeRange range, Sink sink) {
  std::ifstream in(path, std::ios::binary);
  return convert_recording(in, format, range, std::move(sink));
}

int dump_file(const std::filesystem::path& path, std::string_view format, std::ostream& out,
              std::ostream& err) {
  const auto parsed_format = parse_dump_format(format);
  if (!parsed_format || *parsed_format == DumpFormat::raw) {
    err << "flightrec dump: --format " << quote_for_error(format) << " is not one of json, csv\n";
    return 1;
  }
  if (const auto reason = unopenable_reason(path); !reason.empty()) {
    err << failure(path, reason);
    return 1;
  }
  const auto in = open_for_passes(path);
  // Pass 1 checks every section; blocks are dropped as soon as they are verified.
  {
    RecordingReader reader(*in);
    if (reader.open()) {
      while (reader.next()) {
      }
    }
    if (!reader.complete()) {
      err << failure(path, reader.error());
      return 1;
    }
  }
  if (!rewind(*in)) {
    err << failure(path, "cannot read it a second time");
    return 1;
  }
  const auto error = convert_recording(*in, *parsed_format, {}, [&out](std::string_view bytes) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
  });
  // A failed write to `out` is the caller's to report: it knows what `out` is (main reports one
  // to standard output for every command).
  if (!error.empty() && out) {
    err << failure(path, error);
    return 1;
  }
  return error.empty() ? 0 : 1;
}

}  // namespace flightrec::recording
