#pragma once
// A bcrypt hash of `password` at the lowest cost (4), made by libxcrypt as the server checks it:
// for tests that write basic_auth_users into a web config file.
#include <crypt.h>

#include <stdexcept>
#include <string>

namespace flightrec::testing {

inline std::string bcrypt_hash(const std::string& password) {
  char salt[CRYPT_GENSALT_OUTPUT_SIZE];
  crypt_data data{};
  if (crypt_gensalt_rn("$2b$", 4, nullptr, 0, salt, sizeof salt) == nullptr) {
    throw std::runtime_error("crypt_gensalt_rn failed");
  }
  const char* hash = crypt_r(password.c_str(), salt, &data);
  if (hash == nullptr || hash[0] == '*') throw std::runtime_error("crypt_r failed");
  return hash;
}

}  // namespace flightrec::testing
