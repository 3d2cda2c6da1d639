// Reading config files and choosing which one to read.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string_view>
#include <system_error>

#include "flightrec/common/fd.h"
#include "flightrec/common/printable.h"
#include "flightrec/common/result.h"
#include "flightrec/config/loader.h"

namespace flightrec::config {
namespace {

LoadResult failure(const std::filesystem::path& path, const std::string& reason) {
  LoadResult result;
  result.origin = path.string();
  // As every error of the document's (loader.cpp): printable, whatever bytes the name holds.
  result.errors.push_back(escape_unprintable(path.string() + ": " + reason, Newlines::escape));
  return result;
}

std::string describe_errno(int error) { return std::generic_category().message(error); }

std::string_view kind_of_file(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a socket";
}

// Only regular files: opening a FIFO would wait for a writer forever, and a device or a pipe that
// reads as empty would silently give the defaults. O_NONBLOCK keeps the open itself from waiting;
// it changes nothing for the reads of a regular file. Reads until EOF rather than trusting
// st_size, which a file being rewritten can outdate.
Result<std::string> read_bounded(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (!fd) return Error{"cannot open config file: " + describe_errno(errno)};
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return Error{"cannot read config file: " + describe_errno(errno)};
  }
  if (!S_ISREG(info.st_mode)) {
    return Error{"cannot read config file: not a regular file (it is " +
                 std::string(kind_of_file(info.st_mode)) + ")"};
  }
  std::string text;
  char chunk[8192];
  while (true) {
    ssize_t got = ::read(fd.get(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Error{"cannot read config file: " + describe_errno(errno)};
    if (got == 0) return text;
    text.append(chunk, static_cast<size_t>(got));
    if (text.size() > kMaxConfigFileBytes) {
      return Error{"config file is larger than " + std::to_string(kMaxConfigFileBytes) + " bytes"};
    }
  }
}

}  // namespace

LoadResult load_from_file(const std::filesystem::path& path) {
  const auto text = read_bounded(path);
  if (!text) return failure(path, text.error());
  return load_from_string(*text, path.string());
}

LoadResult load_with_lookup(const std::optional<std::filesystem::path>& explicit_path,
                            const LookupPaths& paths) {
  if (explicit_path) {
    std::error_code ec;
    if (!std::filesystem::exists(*explicit_path, ec) && !ec) {
      return failure(*explicit_path, "config file given with --config.file does not exist");
    }
    return load_from_file(*explicit_path);
  }
  for (const std::filesystem::path& candidate : {paths.system, paths.local}) {
    std::error_code ec;
    auto status = std::filesystem::status(candidate, ec);
    if (status.type() == std::filesystem::file_type::not_found) continue;
    // It exists (or cannot even be checked): either way it is meant to be the config, so a failure
    // to read it is reported instead of silently falling back to the next candidate.
    if (ec) return failure(candidate, "cannot check config file: " + ec.message());
    return load_from_file(candidate);
  }
  LoadResult result = load_from_string(embedded_defaults_yaml(), kEmbeddedDefaultsOrigin);
  result.origin = kEmbeddedDefaultsOrigin;
  return result;
}

}  // namespace flightrec::config
