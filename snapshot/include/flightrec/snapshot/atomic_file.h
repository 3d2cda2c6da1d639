#pragma once
// Replaces a file so that readers see either the old content or the new, never a partial file:
// write <path>.tmp.XXXXXX in the same directory, fsync it, rename it over <path>, fsync the
// directory so the rename itself survives a crash. The rename replaces whatever entry <path> is,
// a symlink or a device node too: for a path a user named, use write_output_file (output_file.h).
#include <filesystem>
#include <string>
#include <string_view>

namespace flightrec::snapshot {

struct [[nodiscard]] WriteResult {
  std::string error;  // empty on success; otherwise names the path and the errno text
  [[nodiscard]] bool ok() const noexcept { return error.empty(); }
};

// The new file has mode 0600 (before umask): snapshots hold command lines, which can hold secrets.
// On failure the temporary file is removed and <path> is left as it was.
WriteResult write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace flightrec::snapshot
