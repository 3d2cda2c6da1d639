#include "flightrec/replay/credentials.h"

#include <fstream>

namespace flightrec::replay {
namespace {

std::string flag_or_variable(const std::string& flag, const Environment& environment,
                             const char* variable) {
  if (!flag.empty()) return flag;
  const char* value = environment(variable);
  return value == nullptr ? std::string() : std::string(value);
}

// The password file's first line, without its line end; or that it cannot be read.
Result<std::string> read_password(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error{"--password-file: cannot read \"" + path + "\""};
  std::string password;
  std::getline(file, password);
  if (password.ends_with('\r')) password.pop_back();
  return password;
}

}  // namespace

Result<ClientCredentials> resolve_credentials(const CredentialFlags& flags,
                                              const Environment& environment) {
  ClientCredentials c;
  c.ca_file = flag_or_variable(flags.ca_file, environment, "FLIGHTREC_CA_FILE");
  c.cert_file = flag_or_variable(flags.cert_file, environment, "FLIGHTREC_CERT_FILE");
  c.key_file = flag_or_variable(flags.key_file, environment, "FLIGHTREC_KEY_FILE");
  c.user = flag_or_variable(flags.user, environment, "FLIGHTREC_USER");
  if (!flags.password_file.empty()) {
    auto password = read_password(flags.password_file);
    if (!password) return Error{std::move(password).error()};
    c.password = *std::move(password);
  } else if (const char* password = environment("FLIGHTREC_PASSWORD"); password != nullptr) {
    c.password = password;
  }
  if (c.user.empty() && !c.password.empty()) {
    return Error{
        "a password was given (--password-file or FLIGHTREC_PASSWORD) but no user "
        "(--user or FLIGHTREC_USER)"};
  }
  if (!c.key_file.empty() && c.cert_file.empty()) {
    return Error{
        "a client key was given (--key-file or FLIGHTREC_KEY_FILE) without its "
        "certificate (--cert-file or FLIGHTREC_CERT_FILE)"};
  }
  return c;
}

}  // namespace flightrec::replay
