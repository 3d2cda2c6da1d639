#include "server_certificate.h"

#include <openssl/err.h>
#include <openssl/pem.h>

#include <system_error>

#include "flightrec/common/log.h"
#include "openssl_error.h"

namespace flightrec::http::detail {
namespace {

constexpr std::chrono::seconds kCheckEvery{1};

struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using Bio = std::unique_ptr<BIO, BioDeleter>;

int certificate_index() {
  static const int index =
      SSL_CTX_get_ex_new_index(0, nullptr, nullptr, nullptr,
                               [](void*, void* certificate, CRYPTO_EX_DATA*, int, long,
                                  void*) {  // NOLINT(google-runtime-int)
                                 delete static_cast<ServerCertificate*>(certificate);
                               });
  return index;
}

int on_handshake(SSL* ssl, void* certificate) {
  return static_cast<ServerCertificate*>(certificate)->install(ssl) ? 1 : 0;
}

}  // namespace

// A leaf, the rest of its chain, and its key, owned.
struct ServerCertificate::Pair {
  X509* leaf = nullptr;
  STACK_OF(X509) * chain = sk_X509_new_null();
  EVP_PKEY* key = nullptr;
  Pair() = default;
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  ~Pair() {
    X509_free(leaf);
    sk_X509_pop_free(chain, X509_free);
    EVP_PKEY_free(key);
  }

  // The chain file's certificates (leaf first), then the key, which must belong to the leaf; or
  // what was wrong.
  Status read(const std::filesystem::path& cert_file, const std::filesystem::path& key_file) {
    ERR_clear_error();
    const Bio certs(BIO_new_file(cert_file.c_str(), "r"));
    if (!certs || (leaf = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr)) == nullptr) {
      return Error{"cannot load " + cert_file.string() + ": " + openssl_error("no PEM data")};
    }
    while (X509* next = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr)) {
      sk_X509_push(chain, next);
    }
    ERR_clear_error();  // the end of the file reads as an error
    const Bio key_bio(BIO_new_file(key_file.c_str(), "r"));
    if (!key_bio ||
        (key = PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr)) == nullptr) {
      return Error{"cannot load " + key_file.string() + ": " + openssl_error("no PEM data")};
    }
    if (X509_check_private_key(leaf, key) != 1) {
      ERR_clear_error();
      return Error{key_file.string() + " is not the key of " + cert_file.string()};
    }
    return {};
  }
};

ServerCertificate::ServerCertificate(std::filesystem::path cert_file,
                                     std::filesystem::path key_file)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)) {}

ServerCertificate::~ServerCertificate() = default;

ServerCertificate::Stamp ServerCertificate::stamp_now() const {
  std::error_code ignored;  // a missing file stamps as the epoch: a change, then a load error
  return {std::filesystem::last_write_time(cert_file_, ignored),
          std::filesystem::last_write_time(key_file_, ignored),
          std::filesystem::file_size(cert_file_, ignored),
          std::filesystem::file_size(key_file_, ignored)};
}

Status ServerCertificate::load() {
  const Stamp stamp = stamp_now();
  auto pair = std::make_shared<Pair>();
  if (Status read = pair->read(cert_file_, key_file_); !read) return read;
  const std::lock_guard lock(mutex_);
  current_ = std::move(pair);
  stamp_ = stamp;
  next_check_ = std::chrono::steady_clock::now() + kCheckEvery;
  return {};
}

void ServerCertificate::reload_if_changed() {
  {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    if (now < next_check_) return;
    next_check_ = now + kCheckEvery;
    if (stamp_now() == stamp_) return;
  }
  if (const Status loaded = load(); !loaded) {
    // Files replaced one after the other can be caught between the two: the next check (a second
    // on) sees the pair complete. Until then, and for a pair that stays broken, the old one serves.
    log::warn("TLS certificate files changed but do not load; serving the previous certificate",
              {{"error", loaded.error()}});
    const std::lock_guard lock(mutex_);
    stamp_ = stamp_now();  // logged once per change, not once per handshake
    return;
  }
  log::info("TLS certificate reloaded", {{"cert_file", cert_file_.string()}});
}

bool ServerCertificate::install(SSL* ssl) {
  reload_if_changed();
  std::shared_ptr<const Pair> pair;
  {
    const std::lock_guard lock(mutex_);
    pair = current_;
  }
  if (!pair) return false;
  // override = 1: replaces what the context configured at start-up for this connection only.
  return SSL_use_cert_and_key(ssl, pair->leaf, pair->key, pair->chain, 1) == 1;
}

void ServerCertificate::attach(SSL_CTX* ctx, std::unique_ptr<ServerCertificate> certificate) {
  ServerCertificate* owned = certificate.release();
  SSL_CTX_set_ex_data(ctx, certificate_index(), owned);
  SSL_CTX_set_cert_cb(ctx, on_handshake, owned);
}

}  // namespace flightrec::http::detail
