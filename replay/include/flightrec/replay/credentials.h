#pragma once
// Who replay is to a secured daemon: its TLS files and basic-auth user, from replay's flags or,
// where a flag is not given, the environment (FLIGHTREC_CA_FILE, FLIGHTREC_CERT_FILE,
// FLIGHTREC_KEY_FILE, FLIGHTREC_USER, FLIGHTREC_PASSWORD). The password never comes from a flag
// value, where `ps` and shell history would show it: --password-file names a file holding it.
#include <functional>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/replay/http_fetch.h"

namespace flightrec::replay {

// What the flags gave; empty fields fall back to the environment.
struct CredentialFlags {
  std::string ca_file;
  std::string cert_file;
  std::string key_file;
  std::string user;
  std::string password_file;
};

// `environment` reads one variable (nullptr when unset): std::getenv in the program.
using Environment = std::function<const char*(const char*)>;

// The credentials, or what was wrong, naming the flag or variable; never the password.
Result<ClientCredentials> resolve_credentials(const CredentialFlags& flags,
                                              const Environment& environment);

}  // namespace flightrec::replay
