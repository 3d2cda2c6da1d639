#pragma once
// The web config file as the server uses it: loaded at start-up (an invalid file stops start-up)
// and re-read when it changes, as exporter-toolkit re-reads it per request, so a password change
// or a new user takes effect without a restart. The check is a stat (mtime and size) per call;
// a changed file is parsed again, and a version that does not parse is logged and ignored: the
// previous one stays in force. TLS settings make the gate's OpenSSL context, rebuilt by a reload
// (Server::prepare_tls), so a change to tls_server_config is logged as waiting for one; the
// certificate files' contents rotate without one (http/src/server_certificate.h).
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <mutex>

#include "flightrec/http/web_config.h"

namespace flightrec::http {

class WebConfigFile {
 public:
  // Throws std::runtime_error with every error line when the file cannot be read or parsed.
  explicit WebConfigFile(std::filesystem::path path);

  // The version in force, re-read first if the file changed since the last call.
  [[nodiscard]] std::shared_ptr<const WebConfig> current();
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

 private:
  struct Stamp {
    timespec mtime{};
    off_t size = -1;
    ino_t inode = 0;  // a file replaced by rename has a new inode, whatever its mtime
    bool operator==(const Stamp& other) const;
  };
  [[nodiscard]] Stamp stamp() const;

  std::filesystem::path path_;
  std::mutex mutex_;
  Stamp loaded_stamp_;
  std::shared_ptr<const WebConfig> config_;
};

}  // namespace flightrec::http
