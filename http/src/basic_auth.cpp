#include "flightrec/http/basic_auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <array>
#include <cstring>

#include "flightrec/http/header_list.h"

namespace flightrec::http {
namespace {

// Checked against when the user does not exist, so that costs what a known user costs (at the
// usual cost 10): a well-formed hash (valid salt, so crypt computes it in full) whose hash part
// is made up, so no password is known to match it.
constexpr const char* kNoSuchUserHash =
    "$2b$10$flightrecNoSuchUserSaeNoPasswordHashesToThisValue0123";

constexpr size_t kMaxHeaderBytes = 4096;

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with padding, nothing else allowed (no whitespace, no missing '=').
std::optional<std::string> decode_base64(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    const size_t padding = !last ? 0 : text[i + 3] != '=' ? 0 : text[i + 2] != '=' ? 1 : 2;
    uint32_t group = 0;
    for (size_t j = 0; j < 4; ++j) {
      const int value = j < 4 - padding ? base64_value(text[i + j]) : 0;
      if (value < 0) return std::nullopt;
      group = (group << 6) | static_cast<uint32_t>(value);
    }
    const std::array<char, 3> bytes{static_cast<char>(group >> 16), static_cast<char>(group >> 8),
                                    static_cast<char>(group)};
    out.append(bytes.data(), 3 - padding);
    // Non-canonical padding bits ("QR==" for "A") are refused: one header, one spelling.
    if ((padding == 1 && (group & 0xff) != 0) || (padding == 2 && (group & 0xffff) != 0)) {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::optional<Credentials> decode_basic_authorization(std::string_view header) {
  constexpr std::string_view kScheme = "Basic ";
  if (header.size() > kMaxHeaderBytes || header.size() < kScheme.size() ||
      !iequals(header.substr(0, kScheme.size()), kScheme)) {
    return std::nullopt;
  }
  auto decoded = decode_base64(header.substr(kScheme.size()));
  if (!decoded || decoded->find('\0') != std::string::npos) return std::nullopt;
  const size_t colon = decoded->find(':');
  if (colon == std::string::npos) return std::nullopt;
  return Credentials{decoded->substr(0, colon), decoded->substr(colon + 1)};
}

CredentialCache::CredentialCache(size_t capacity) : capacity_(capacity) {}

std::string CredentialCache::key(std::string_view user, std::string_view hash,
                                 std::string_view password) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::string digest(EVP_MAX_MD_SIZE, '\0');
  unsigned length = 0;
  // Lengths first, so ("ab", "c") and ("a", "bc") differ.
  const std::array<uint64_t, 3> sizes{user.size(), hash.size(), password.size()};
  const bool ok =
      ctx != nullptr && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) == 1 &&
      EVP_DigestUpdate(ctx, sizes.data(), sizeof sizes) == 1 &&
      EVP_DigestUpdate(ctx, user.data(), user.size()) == 1 &&
      EVP_DigestUpdate(ctx, hash.data(), hash.size()) == 1 &&
      EVP_DigestUpdate(ctx, password.data(), password.size()) == 1 &&
      EVP_DigestFinal_ex(ctx, reinterpret_cast<unsigned char*>(digest.data()), &length) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) return {};  // an empty key is never inserted, so this only costs a bcrypt
  digest.resize(length);
  return digest;
}

bool CredentialCache::contains(std::string_view user, std::string_view hash,
                               std::string_view password) const {
  const std::string k = key(user, hash, password);
  if (k.empty()) return false;
  const std::lock_guard lock(mutex_);
  return keys_.contains(k);
}

void CredentialCache::insert(std::string_view user, std::string_view hash,
                             std::string_view password) {
  std::string k = key(user, hash, password);
  if (k.empty() || capacity_ == 0) return;
  const std::lock_guard lock(mutex_);
  if (keys_.contains(k)) return;
  while (order_.size() >= capacity_) {
    keys_.erase(order_.front());
    order_.pop_front();
  }
  keys_.insert(k);
  order_.push_back(std::move(k));
}

size_t CredentialCache::size() const {
  const std::lock_guard lock(mutex_);
  return keys_.size();
}

bool bcrypt_matches(std::string_view password, const std::string& hash, crypt_data& scratch) {
  const std::string phrase(password);
  std::memset(&scratch, 0, sizeof scratch);
  const char* computed = crypt_r(phrase.c_str(), hash.c_str(), &scratch);
  // libxcrypt fails with a string starting with '*' (never a valid hash) or null.
  if (computed == nullptr || computed[0] == '*') return false;
  const size_t length = std::strlen(computed);
  return length == hash.size() && CRYPTO_memcmp(computed, hash.data(), length) == 0;
}

BasicAuthenticator::BasicAuthenticator(size_t cache_capacity)
    : cache_(cache_capacity), scratch_(std::make_unique<crypt_data>()) {}

BasicAuthenticator::~BasicAuthenticator() = default;

bool BasicAuthenticator::start_waiting(std::string_view client) {
  const std::lock_guard lock(waiting_mutex_);
  const auto [mine, added] = waiting_by_client_.try_emplace(std::string(client), 0);
  if (waiting_ >= kMostWaiting || mine->second >= kMostWaitingPerClient) {
    if (added) waiting_by_client_.erase(mine);
    return false;
  }
  ++mine->second;
  ++waiting_;
  return true;
}

void BasicAuthenticator::stop_waiting(std::string_view client) {
  const std::lock_guard lock(waiting_mutex_);
  --waiting_;
  const auto mine = waiting_by_client_.find(std::string(client));
  if (--mine->second == 0) waiting_by_client_.erase(mine);
}

Authentication BasicAuthenticator::authenticate(const std::map<std::string, std::string>& users,
                                                std::optional<std::string_view> authorization,
                                                std::string_view client) {
  if (!authorization) return {.user = std::nullopt, .failure = AuthFailure::missing_credentials};
  auto credentials = decode_basic_authorization(*authorization);
  if (!credentials) return {.user = std::nullopt, .failure = AuthFailure::malformed_credentials};
  const auto found = users.find(credentials->user);
  const std::string& hash = found != users.end() ? found->second : std::string(kNoSuchUserHash);
  if (found != users.end() && cache_.contains(credentials->user, hash, credentials->password)) {
    return {.user = std::move(credentials->user)};
  }
  if (!start_waiting(client)) return {.user = std::nullopt, .failure = AuthFailure::throttled};
  bool matches = false;
  {
    const std::lock_guard lock(bcrypt_mutex_);
    ++bcrypt_runs_;
    matches = bcrypt_matches(credentials->password, hash, *scratch_);
  }
  stop_waiting(client);
  if (found == users.end()) return {.user = std::nullopt, .failure = AuthFailure::unknown_user};
  if (!matches) return {.user = std::nullopt, .failure = AuthFailure::wrong_password};
  cache_.insert(credentials->user, hash, credentials->password);
  return {.user = std::move(credentials->user)};
}

uint64_t BasicAuthenticator::bcrypt_runs() const {
  const std::lock_guard lock(bcrypt_mutex_);
  return bcrypt_runs_;
}

}  // namespace flightrec::http
