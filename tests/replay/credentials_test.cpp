#include "flightrec/replay/credentials.h"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

using namespace flightrec::replay;

namespace {

// An environment made of the given variables only.
Environment environment_of(const std::map<std::string, std::string>& variables) {
  return [variables](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  };
}

std::filesystem::path password_file(const std::string& contents) {
  const auto path =
      std::filesystem::temp_directory_path() / ("flightrec-password-" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

}  // namespace

TEST_CASE("credentialsComeFromTheEnvironmentWhereNoFlagIsGiven", "[replay][credentials]") {
  const Environment environment = environment_of({{"FLIGHTREC_CA_FILE", "/env/ca.pem"},
                                                  {"FLIGHTREC_CERT_FILE", "/env/client.pem"},
                                                  {"FLIGHTREC_USER", "env-user"},
                                                  {"FLIGHTREC_PASSWORD", "env-secret"}});
  CredentialFlags flags;
  flags.ca_file = "/flag/ca.pem";
  const auto result = resolve_credentials(flags, environment);
  REQUIRE(result.ok());
  CHECK(result->ca_file == "/flag/ca.pem");
  CHECK(result->cert_file == "/env/client.pem");
  CHECK(result->key_file.empty());
  CHECK(result->user == "env-user");
  CHECK(result->password == "env-secret");
}

TEST_CASE("aPasswordFileGivesItsFirstLineAndOverridesTheEnvironment", "[replay][credentials]") {
  const auto path = password_file("file-secret\r\nsecond line\n");
  CredentialFlags flags;
  flags.user = "alice";
  flags.password_file = path.string();
  const auto result =
      resolve_credentials(flags, environment_of({{"FLIGHTREC_PASSWORD", "env-secret"}}));
  std::filesystem::remove(path);
  REQUIRE(result.ok());
  CHECK(result->password == "file-secret");
}

TEST_CASE("credentialMistakesNameTheFlagAndNeverThePassword", "[replay][credentials]") {
  CredentialFlags missing_file;
  missing_file.user = "alice";
  missing_file.password_file = "/nonexistent/password";
  CHECK(resolve_credentials(missing_file, environment_of({})).error() ==
        "--password-file: cannot read \"/nonexistent/password\"");

  const auto no_user = resolve_credentials({}, environment_of({{"FLIGHTREC_PASSWORD", "hunter2"}}));
  CHECK_THAT(no_user.error(), Catch::Contains("no user (--user or FLIGHTREC_USER)"));
  CHECK_THAT(no_user.error(), !Catch::Contains("hunter2"));

  CredentialFlags key_only;
  key_only.key_file = "/k.pem";
  CHECK_THAT(resolve_credentials(key_only, environment_of({})).error(),
             Catch::Contains("without its certificate"));
}
