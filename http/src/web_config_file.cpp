#include "flightrec/http/web_config_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "flightrec/common/fd.h"
#include "flightrec/common/log.h"
#include "flightrec/common/result.h"

namespace flightrec::http {
namespace {

// Bigger than any web config; a mistaken path such as /dev/zero cannot hang the server.
constexpr size_t kMaxBytes = 1 << 20;

// Regular files only (a FIFO would block the open); reads until EOF rather than trusting st_size.
Result<std::string> read_file(const std::filesystem::path& path) {
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  struct stat info {};
  if (!fd || ::fstat(fd.get(), &info) != 0) {
    return Error{std::string("cannot read web config file: ") + std::strerror(errno)};
  }
  if (!S_ISREG(info.st_mode)) return Error{"cannot read web config file: not a regular file"};
  std::string text;
  char chunk[8192];
  while (true) {
    const ssize_t got = ::read(fd.get(), chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return Error{std::string("cannot read web config file: ") + std::strerror(errno)};
    if (got == 0) return text;
    text.append(chunk, static_cast<size_t>(got));
    if (text.size() > kMaxBytes) {
      return Error{"web config file is larger than " + std::to_string(kMaxBytes) + " bytes"};
    }
  }
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += (out.empty() ? "" : "\n") + line;
  return out;
}

}  // namespace

bool same_tls_settings(const TlsServerConfig& a, const TlsServerConfig& b) {
  return a.enabled == b.enabled && a.cert_file.path == b.cert_file.path &&
         a.key_file.path == b.key_file.path && a.client_ca_file.path == b.client_ca_file.path &&
         a.client_auth == b.client_auth && a.min_version == b.min_version &&
         a.max_version == b.max_version && a.tls12_ciphers == b.tls12_ciphers &&
         a.tls13_ciphers == b.tls13_ciphers &&
         a.prefer_server_cipher_suites == b.prefer_server_cipher_suites && a.curves == b.curves &&
         a.client_allowed_sans == b.client_allowed_sans;
}

WebConfigResult load_web_config(const std::filesystem::path& path) {
  const auto text = read_file(path);
  if (!text) return {.config = std::nullopt, .errors = {path.string() + ": " + text.error()}};
  return parse_web_config(*text, path.string(), path.parent_path());
}

bool WebConfigFile::Stamp::operator==(const Stamp& other) const {
  return mtime.tv_sec == other.mtime.tv_sec && mtime.tv_nsec == other.mtime.tv_nsec &&
         size == other.size && inode == other.inode;
}

WebConfigFile::Stamp WebConfigFile::stamp() const {
  struct stat info {};
  if (::stat(path_.c_str(), &info) != 0) return {};
  return {.mtime = info.st_mtim, .size = info.st_size, .inode = info.st_ino};
}

WebConfigFile::WebConfigFile(std::filesystem::path path) : path_(std::move(path)) {
  loaded_stamp_ = stamp();
  auto loaded = load_web_config(path_);
  if (!loaded.config) throw std::runtime_error(joined(loaded.errors));
  config_ = std::make_shared<const WebConfig>(std::move(*loaded.config));
}

std::shared_ptr<const WebConfig> WebConfigFile::current() {
  const Stamp now = stamp();
  const std::lock_guard lock(mutex_);
  if (now == loaded_stamp_) return config_;
  loaded_stamp_ = now;
  auto loaded = load_web_config(path_);
  if (!loaded.config) {
    log::error("web config file changed but is invalid; keeping the previous version",
               {{"file", path_.string()}, {"err", joined(loaded.errors)}});
    return config_;
  }
  if (!same_tls_settings(loaded.config->tls, config_->tls)) {
    log::warn(
        "web config file: tls_server_config changed; it takes effect at the next reload (SIGHUP, "
        "POST /-/reload)",
        {{"file", path_.string()}});
  }
  config_ = std::make_shared<const WebConfig>(std::move(*loaded.config));
  log::info("web config file reloaded",
            {{"file", path_.string()}, {"users", std::to_string(config_->users.size())}});
  return config_;
}

}  // namespace flightrec::http
