#pragma once
// The streaming counterpart of snapshot::write_file_atomically, for files too big to build in
// memory first: bytes go to <path>.tmp.XXXXXX as they come; commit() fsyncs it, renames it over
// <path> and fsyncs the directory. Without a commit the temporary file is removed.
#include <filesystem>
#include <string>
#include <string_view>

#include "flightrec/common/fd.h"
#include "flightrec/snapshot/atomic_file.h"

namespace flightrec::recording::detail {

class AtomicStreamFile {
 public:
  // Creates the temporary file (mode 0600: recordings can hold command lines); on failure error()
  // says why and every write fails.
  explicit AtomicStreamFile(std::filesystem::path path);
  ~AtomicStreamFile();
  AtomicStreamFile(const AtomicStreamFile&) = delete;
  AtomicStreamFile& operator=(const AtomicStreamFile&) = delete;

  bool write(std::string_view bytes);
  snapshot::WriteResult commit();

 private:
  bool fail(std::string_view what);

  std::filesystem::path path_;
  std::string temp_path_;
  Fd fd_;
  std::string error_;
};

}  // namespace flightrec::recording::detail
