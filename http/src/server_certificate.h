#pragma once
// The server's certificate chain and key, re-read when their files change, so a rotated
// certificate (cert-manager, certbot and Kubernetes Secret volumes replace the files in place) is
// served from the next handshake on, without a restart, as exporter-toolkit does. OpenSSL asks
// for it in every handshake (SSL_CTX_set_cert_cb); the files are looked at (one stat each) at most
// once a second, and a pair that does not load or does not match keeps the previous one, logged.
#include <openssl/ssl.h>

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "flightrec/common/result.h"

namespace flightrec::http::detail {

class ServerCertificate {
 public:
  ServerCertificate(std::filesystem::path cert_file, std::filesystem::path key_file);
  ~ServerCertificate();
  ServerCertificate(const ServerCertificate&) = delete;
  ServerCertificate& operator=(const ServerCertificate&) = delete;

  // Loads the pair now, or says what was wrong with which file.
  [[nodiscard]] Status load();

  // Installs the current pair on a connection being handshaken, re-reading the files first when
  // they changed. False when there is no pair to install.
  bool install(SSL* ssl);

  // Makes OpenSSL call install() in every handshake of `ctx`; the context takes ownership.
  static void attach(SSL_CTX* ctx, std::unique_ptr<ServerCertificate> certificate);

 private:
  struct Pair;
  struct Stamp {
    std::filesystem::file_time_type cert_time;
    std::filesystem::file_time_type key_time;
    uintmax_t cert_size = 0;
    uintmax_t key_size = 0;
    bool operator==(const Stamp&) const = default;
  };
  [[nodiscard]] Stamp stamp_now() const;
  void reload_if_changed();

  std::filesystem::path cert_file_;
  std::filesystem::path key_file_;
  std::mutex mutex_;
  std::shared_ptr<const Pair> current_;
  Stamp stamp_;
  std::chrono::steady_clock::time_point next_check_;
};

}  // namespace flightrec::http::detail
