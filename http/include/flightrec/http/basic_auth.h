#pragma once
// HTTP basic authentication against the web config's basic_auth_users (bcrypt hashes), with a
// cache of successful checks: bcrypt at cost 10 takes tens of milliseconds by design, and a
// Prometheus scraping every second must not pay it per scrape (docs/PERFORMANCE.md).
#include <crypt.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "flightrec/http/server_stats.h"

namespace flightrec::http {

struct Credentials {
  std::string user;
  std::string password;
};

// The credentials of an `Authorization: Basic <base64>` header (scheme case-insensitive, strict
// base64 with padding, split at the first ':'); nullopt for any other scheme, bad base64, no ':',
// or a NUL byte (crypt(3) would stop reading there).
[[nodiscard]] std::optional<Credentials> decode_basic_authorization(std::string_view header);

// Successful checks, keyed by a SHA-256 of user, stored hash and password: the password itself is
// never kept, and a changed hash in the config no longer matches its old entries. Bounded: the
// oldest entry goes first when full. Thread-safe.
class CredentialCache {
 public:
  explicit CredentialCache(size_t capacity);

  [[nodiscard]] bool contains(std::string_view user, std::string_view hash,
                              std::string_view password) const;
  void insert(std::string_view user, std::string_view hash, std::string_view password);
  [[nodiscard]] size_t size() const;

 private:
  static std::string key(std::string_view user, std::string_view hash, std::string_view password);

  size_t capacity_;
  mutable std::mutex mutex_;
  std::unordered_set<std::string> keys_;
  std::deque<std::string> order_;  // oldest first
};

// True when `password` hashes to `hash` under crypt(3) (libxcrypt reads $2a$, $2b$ and $2y$);
// the comparison takes the same time wherever the strings differ.
[[nodiscard]] bool bcrypt_matches(std::string_view password, const std::string& hash,
                                  crypt_data& scratch);

// What BasicAuthenticator::authenticate found: a user, or why not.
struct Authentication {
  std::optional<std::string> user;  // the authenticated user's name
  // Why there is no user; AuthFailure::throttled: not checked, too many password checks were
  // waiting.
  std::optional<AuthFailure> failure;
};

class BasicAuthenticator {
 public:
  // Password checks waiting for bcrypt at most, in all and per client address; more are refused
  // at once (throttled).
  static constexpr int kMostWaiting = 8;
  static constexpr int kMostWaitingPerClient = 1;

  explicit BasicAuthenticator(size_t cache_capacity = 256);
  BasicAuthenticator(const BasicAuthenticator&) = delete;
  BasicAuthenticator& operator=(const BasicAuthenticator&) = delete;
  ~BasicAuthenticator();

  // The authenticated user's name, or none (no header, wrong scheme, unknown user, wrong
  // password). An unknown user costs one bcrypt as a known one does, so timing does not tell
  // which names exist. Only successes are cached: a wrong password always pays bcrypt. A check
  // the cache cannot answer is throttled instead when kMostWaiting checks, or one from the same
  // `client` (its address), already wait for bcrypt: each waiting check holds a worker, so a flood
  // of wrong passwords must not hold them all, and one flooding client takes one place, leaving
  // the others to other clients (a scraper whose password is not cached yet).
  [[nodiscard]] Authentication authenticate(const std::map<std::string, std::string>& users,
                                            std::optional<std::string_view> authorization,
                                            std::string_view client = {});

  // bcrypt computations so far (the cache's misses), for tests and the benchmark.
  [[nodiscard]] uint64_t bcrypt_runs() const;

 private:
  CredentialCache cache_;
  // One bcrypt at a time, as exporter-toolkit does: a flood of wrong passwords costs one core at
  // most, never every worker's. crypt_data is ~32 KiB, so it is kept, not put on the stack.
  mutable std::mutex bcrypt_mutex_;
  [[nodiscard]] bool start_waiting(std::string_view client);
  void stop_waiting(std::string_view client);
  // Checks waiting for or running bcrypt, in all and by client address.
  std::mutex waiting_mutex_;
  int waiting_ = 0;
  std::unordered_map<std::string, int> waiting_by_client_;
  std::unique_ptr<crypt_data> scratch_;
  uint64_t bcrypt_runs_ = 0;
};

}  // namespace flightrec::http
