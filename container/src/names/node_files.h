#pragma once
// The few filesystem calls the name sources make, with the errors they report: a stamp to tell
// whether a file or directory changed, a directory's entry names, a link's text.
#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/common/result.h"

namespace flightrec::container::names::detail {

// What changes when a directory gains or loses an entry, or a file is rewritten or replaced.
struct FileStamp {
  bool exists = false;
  dev_t device = 0;
  ino_t inode = 0;
  int64_t mtime_ns = 0;
  int64_t ctime_ns = 0;  // also moves on chmod and chown: a directory that became readable
  off_t size = 0;
  // Modified long enough before it was stamped that a later change would have a later mtime:
  // the clock behind mtimes ticks coarsely (jiffies, and whole seconds on some filesystems), so
  // a change in the same tick as the stamp would not show. An unsettled stamp is never trusted.
  bool settled = true;
};

// The stamp of `path` now (one stat). A path that does not exist has a stamp too (exists =
// false); any other failure is an error naming the path.
Result<FileStamp> stamp_of(const std::filesystem::path& path);

// True when `now` shows no change since `before`, and `before` could be trusted to show one.
[[nodiscard]] bool unchanged(const FileStamp& before, const FileStamp& now);

// The names of the entries of directory `path` (no "." nor ".."), unsorted; none when it does
// not exist (a runtime that is not installed); an error naming it when it cannot be read.
Result<std::vector<std::string>> list_directory(const std::filesystem::path& path);

// The text of the symbolic link `path` (readlink: the target is not opened), or nothing.
[[nodiscard]] std::optional<std::string> read_link(const std::filesystem::path& path);

}  // namespace flightrec::container::names::detail
