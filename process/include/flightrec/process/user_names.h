#pragma once
// User names for uids, looked up once per uid (a snapshot asks for the same few uids hundreds of
// times, and each NSS lookup may read /etc/passwd or ask a daemon).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

namespace flightrec::process {

// The system's user database via getpwuid_r; nullopt when the uid has no entry.
std::optional<std::string> lookup_user_name(uint32_t uid);

class UserNames {
 public:
  using Lookup = std::function<std::optional<std::string>(uint32_t uid)>;

  UserNames() : UserNames(lookup_user_name) {}
  explicit UserNames(Lookup lookup) : lookup_(std::move(lookup)) {}

  // The user's name, or the uid as decimal text when it has none (as ps does).
  const std::string& name(uint32_t uid);

 private:
  Lookup lookup_;
  std::unordered_map<uint32_t, std::string> cache_;
};

}  // namespace flightrec::process
