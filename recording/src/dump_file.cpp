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

// Converts the verified recording `in` holds: its system blocks, then (JSON) its container frames'
// names, its process blocks and its container frames, a pass each, so memory stays bounded by one
// block and the containers' names.
Status convert_recording(std::istream& in, DumpFormat format, store::TimeRange range, Sink sink) {
  const auto changed = [](const RecordingReader& reader) {
    return Error{"changed while being read: " + reader.error()};
  };
  RecordingReader reader(in);
  if (!in || !reader.open()) return changed(reader);
  TextConverter converter(format, reader.metadata(), range, std::move(sink));
  bool sink_ok = true;
  while (const auto block = reader.next()) {
    if (!(sink_ok = converter.add(block))) break;
  }
  if (sink_ok && !reader.complete()) return changed(reader);
  // The container frames' names first, by which the process rows name their containers.
  if (sink_ok && format == DumpFormat::json && reader.format_version() >= 3) {
    if (!rewind(in)) return Error{"cannot read it for its container names"};
    RecordingReader names(in);
    if (!names.open()) return changed(names);
    while (const auto record = names.next_record()) {
      if (record.container_frame) converter.add_container_names(*record.container_frame);
    }
    if (!names.complete()) return changed(names);
  }
  if (sink_ok && format == DumpFormat::json && reader.format_version() >= 2) {
    if (!rewind(in)) return Error{"cannot read it a second time"};
    RecordingReader processes(in);
    if (!processes.open()) return changed(processes);
    while (const auto record = processes.next_record()) {
      if (record.process_block && !(sink_ok = converter.add_process_block(*record.process_block))) {
        break;
      }
    }
    if (sink_ok && !processes.complete()) return changed(processes);
  }
  if (sink_ok && format == DumpFormat::json && reader.format_version() >= 3) {
    if (!rewind(in)) return Error{"cannot read it a third time"};
    RecordingReader containers(in);
    if (!containers.open()) return changed(containers);
    while (const auto record = containers.next_record()) {
      if (record.container_frame &&
          !(sink_ok = converter.add_container_frame(*record.container_frame))) {
        break;
      }
    }
    if (sink_ok && !containers.complete()) return changed(containers);
  }
  if (!sink_ok || !converter.finish()) return Error{"cannot write the output"};
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

Status convert_recording_file(const std::filesystem::path& path, DumpFormat format,
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
  if (const Status openable = check_openable(path); !openable) {
    err << failure(path, openable.error());
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
  const Status converted =
      convert_recording(*in, *parsed_format, {}, [&out](std::string_view bytes) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return static_cast<bool>(out);
      });
  // A failed write to `out` is the caller's to report: it knows what `out` is (main reports one
  // to standard output for every command).
  if (!converted && out) {
    err << failure(path, converted.error());
    return 1;
  }
  return converted ? 0 : 1;
}

}  // namespace flightrec::recording
