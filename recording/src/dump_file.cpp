#include <fstream>

#include "flightrec/recording/convert.h"

namespace flightrec::recording {

int dump_file(const std::filesystem::path& path, std::string_view format, std::ostream& out,
              std::ostream& err) {
  const auto parsed_format = parse_dump_format(format);
  if (!parsed_format || *parsed_format == DumpFormat::raw) {
    err << "flightrec dump: --format " << format << " is not one of json, csv\n";
    return 1;
  }
  // Pass 1 checks every section; blocks are dropped as soon as they are verified.
  {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      err << path.string() << ": cannot open\n";
      return 1;
    }
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
  // Pass 2 converts, one decoded block at a time.
  std::ifstream in(path, std::ios::binary);
  RecordingReader reader(in);
  if (!in || !reader.open()) {
    err << path.string() << ": changed while being read\n";
    return 1;
  }
  TextConverter converter(*parsed_format, reader.metadata(), {}, [&out](std::string_view bytes) {
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return static_cast<bool>(out);
  });
  while (auto block = reader.next()) converter.add(block);
  if (!reader.complete()) {
    err << path.string() << ": changed while being read: " << reader.error() << "\n";
    return 1;
  }
  if (!converter.finish()) {
    err << "flightrec dump: cannot write the output\n";
    return 1;
  }
  return 0;
}

}  // namespace flightrec::recording
