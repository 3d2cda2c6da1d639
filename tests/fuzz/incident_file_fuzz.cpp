// check_incident_file (the start-up scan of the incident directory) on arbitrary file contents:
// it must never crash, must agree with read_recording on whether the file is whole, and must
// read back the same incident description (model::decode_incident); a file without a window gets
// its blocks' time span. is_valid_incident_id (ids from /incidents/<id> URLs) must accept nothing
// that names another directory. Seed corpus: incident files written by IncidentStore, and the
// recordings of recording_read_fuzz.
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>

#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_id.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/recording/recording_file.h"
#include "fuzz_check.h"

namespace incidents = flightrec::incidents;

namespace {

// The input as a file check_incident_file can open by path. A regular file of its own: the check
// refuses to follow a symbolic link, which /proc/self/fd/N of a memfd is.
std::string as_file(const uint8_t* data, size_t size) {
  struct TempFile {
    std::string path = "/tmp/incident_file_fuzz.XXXXXX";
    TempFile() {
      const int fd = mkstemp(path.data());
      if (fd < 0) __builtin_trap();
      close(fd);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() { unlink(path.c_str()); }
  };
  static const TempFile file;
  const std::string& path = file.path;
  static const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 || ftruncate(fd, 0) != 0) __builtin_trap();
  size_t written = 0;
  while (written < size) {
    const ssize_t n = pwrite(fd, data + written, size - written, static_cast<off_t>(written));
    if (n <= 0) __builtin_trap();
    written += static_cast<size_t>(n);
  }
  return path;
}

bool same_number(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

void check_id(std::string_view id) {
  if (!incidents::is_valid_incident_id(id)) return;
  if (id.size() > incidents::kMaxIdLength || id.front() == '.' ||
      id.find('/') != std::string_view::npos || id.find('\0') != std::string_view::npos) {
    __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  check_id(flightrec::fuzz::as_text(data, size));

  const incidents::FileCheck check = incidents::check_incident_file(as_file(data, size));
  if (check.bytes != size) __builtin_trap();
  const auto read = flightrec::recording::read_recording(std::span(data, size), 1 << 16);
  // read_recording also decodes process frames (and caps their rows), so it may refuse more.
  if (read.ok() && !check.ok()) __builtin_trap();
  if (!check.ok()) {
    if (!check.incident.rule.empty() || check.incident.window_to_ns != 0) __builtin_trap();
    return 0;
  }
  if (!read.ok()) return 0;

  const flightrec::model::IncidentDescription fields =
      flightrec::model::decode_incident(read->meta)
          .value_or(flightrec::model::IncidentDescription{});
  const auto& found = check.incident;
  if (found.rule != fields.rule || found.condition != fields.condition ||
      found.series != fields.series || found.reason != fields.reason ||
      found.fired_at_ns != fields.fired_at_ns || !same_number(found.value, fields.value)) {
    __builtin_trap();
  }
  const auto& blocks = read->blocks;
  if (fields.window_from_ns == 0 && fields.window_to_ns == 0 && !blocks.empty()) {
    if (found.window_from_ns != blocks.front()->real_ns(blocks.front()->first_tick()) ||
        found.window_to_ns != blocks.back()->real_ns(blocks.back()->last_tick())) {
      __builtin_trap();
    }
  } else if (found.window_from_ns != fields.window_from_ns ||
             found.window_to_ns != fields.window_to_ns) {
    __builtin_trap();
  }
  return 0;
}
