#pragma once
// Replacing a file so that readers see either the old content or the new, never a partial file:
// bytes go to <path>.tmp.XXXXXX in the same directory as they come; commit() fsyncs it, closes it
// (close can report a deferred write error, as NFS does), renames it over <path> and fsyncs the
// directory so the rename itself survives a crash. Every step's result is checked; the first
// failure is reported as "cannot <step> <path>: <errno text>" and the temporary file is removed,
// leaving <path> as it was. The rename replaces whatever entry <path> is, a symlink or a device
// node too: for a path a user named, use snapshot::write_output_file.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/fd.h"
#include "flightrec/common/result.h"

namespace flightrec {

// "cannot <what> <path>: <errno text>": the wording of every file error here, which callers
// (incidents' failure causes) read the errno text back from.
[[nodiscard]] std::string file_error(std::string_view what, const std::filesystem::path& path,
                                     int error);

// Writes all of `bytes` to `fd`, retrying short writes and EINTR; 0 or the errno of the failure.
[[nodiscard]] int write_all(int fd, std::string_view bytes);

// For files too big to build in memory first: write() as the bytes come, then commit().
class AtomicFile {
 public:
  // Creates the temporary file with mode 0600 (before umask): recordings and snapshots hold
  // command lines, which can hold secrets. On failure every write fails and commit() says why.
  explicit AtomicFile(std::filesystem::path path);
  // Without a successful commit the temporary file is removed.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // False once anything failed; later writes are ignored.
  bool write(std::string_view bytes);
  // The first failure's "cannot <step> <path>: <errno text>", if any.
  Status commit();

 private:
  bool fail(std::string_view what, const std::filesystem::path& about, int error);
  void publish();

  std::filesystem::path path_;
  std::filesystem::path temp_path_;  // empty when there is no temporary file to clean up
  Fd fd_;
  std::string error_;
};

// The whole file at once.
Status write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// The temporary file for <name> is <name>.tmp.XXXXXX, the six X's filled in by mkostemp from
// [A-Za-z0-9]. For a file name of exactly that shape, the name it was the temporary of; nullopt
// for anything else. A sweep of leftovers removes what this recognises and nothing a user made.
[[nodiscard]] std::optional<std::string_view> atomic_temporary_target(std::string_view name);

}  // namespace flightrec
