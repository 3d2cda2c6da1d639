#include <fstream>

#include "flightrec/recording/convert.h"

namespace flightrec::recording {

std::string convert_recording_file(const std::filesystem::path& path, DumpFormat format,
                                   store::TimeRange range, Sink sink) {
  std::ifstream in(path, std::ios::binary);
  RecordingReader reader(in);
  if (!in || !reader.open()) return "changed while being read: " + reader.error();
  TextConverter converter(format, reader.metadata(), range, std::move(sink));
  bool sink_ok = true;
  while (const auto block = reader.next()) {
    if (!(sink_ok = converter.add(block))) break;
  }
  if (sink_ok && !reader.complete()) return "changed while being read: " + reader.error();
  // JSON's process frames come after every system row: a second pass over the process blocks.
  if (sink_ok && format == DumpFormat::json && reader.format_version() >= 2) {
    std::ifstream again(path, std::ios::binary);
    RecordingReader processes(again);
    if (!again || !processes.open()) return "changed while being read: " + processes.error();
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

int dump_file(const std::filesystem::path& path, std::string_view format, std::ostream& out,
              std::ostream& err) {
  const auto parsed_format = parse_dump_format(format);
  if (!parsed_format || *parsed_format == DumpFormat::raw) {
    err << "flightrec dump: --format " << format << " is not one of json, csv\n";
    return 1;
  }
  // Pass 1 checks every section; blocks are dropped as soon as they are verified.
  {
    if (const auto reason = unopenable_reason(path); !reason.empty()) {
      err << path.string() << ": " << reason << '\n';
      return 1;
    }
    std::ifstream in(path, std::ios::binary);
    RecordingReader reader(in);
    if (reader.open()) {
      while (reader.next()) {
      }
    }
    if (!reader.complete()) {
      err << path.string() << ": " << reader.error() << "\n";
      return 1;
    }
  }
  const auto error =
      convert_recording_file(path, *parsed_format, {}, [&out](std::string_view bytes) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return static_cast<bool>(out);
      });
  if (!error.empty()) {
    err << path.string() << ": " << error << "\n";
    return 1;
  }
  return 0;
}

}  // namespace flightrec::recording
