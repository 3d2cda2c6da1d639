// Which file is used: --config.file, then the system path, then the local path, then the defaults.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "flightrec/config/loader.h"
#include "temp_dir.h"

using namespace flightrec::config;
namespace fs = std::filesystem;
using flightrec::testing::TempDir;

TEST_CASE("lookup prefers the explicit file over both candidates", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.write("system.yaml", "log: {level: warn}"),
                    dir.write("local.yaml", "log: {level: error}")};
  fs::path chosen = dir.write("chosen.yaml", "log: {level: debug}");
  LoadResult result = load_with_lookup(chosen, paths);
  REQUIRE(result.ok());
  CHECK(result.origin == chosen.string());
  CHECK(result.config->log.level == "debug");
}

TEST_CASE("lookup uses the system file before the local one", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.write("system.yaml", "log: {level: warn}"),
                    dir.write("local.yaml", "log: {level: error}")};
  LoadResult result = load_with_lookup(std::nullopt, paths);
  REQUIRE(result.ok());
  CHECK(result.origin == paths.system.string());
  CHECK(result.config->log.level == "warn");
}

TEST_CASE("lookup falls back to the local file when the system file is absent", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.path() / "missing.yaml", dir.write("local.yaml", "log: {level: error}")};
  LoadResult result = load_with_lookup(std::nullopt, paths);
  REQUIRE(result.ok());
  CHECK(result.origin == paths.local.string());
  CHECK(result.config->log.level == "error");
}

TEST_CASE("lookup uses the embedded defaults when no file exists", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.path() / "no-system.yaml", dir.path() / "no-local.yaml"};
  LoadResult result = load_with_lookup(std::nullopt, paths);
  REQUIRE(result.ok());
  CHECK(result.origin == kEmbeddedDefaultsOrigin);
  CHECK(*result.config == Config{});
}

TEST_CASE("a missing explicit file is an error naming it, with no fallback", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.write("system.yaml", "log: {level: warn}"), dir.path() / "none.yaml"};
  fs::path missing = dir.path() / "typo.yaml";
  LoadResult result = load_with_lookup(missing, paths);
  CHECK_FALSE(result.ok());
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] ==
        missing.string() + ": config file given with --config.file does not exist");
}

TEST_CASE("a candidate that exists but is broken is reported, not skipped", "[lookup]") {
  TempDir dir;
  LookupPaths paths{dir.write("system.yaml", "sampler:\n  rate: fast\n"),
                    dir.write("local.yaml", "log: {level: error}")};
  LoadResult result = load_with_lookup(std::nullopt, paths);
  CHECK_FALSE(result.ok());
  REQUIRE(result.errors.size() == 1);
  CHECK_THAT(result.errors[0], Catch::StartsWith(paths.system.string() + ":2: sampler.rate: "));
}

TEST_CASE("a file that cannot be read is an error naming it and the reason", "[lookup]") {
  TempDir dir;
  LoadResult directory = load_from_file(dir.path());
  REQUIRE(directory.errors.size() == 1);
  CHECK_THAT(directory.errors[0], Catch::StartsWith(dir.path().string() + ": cannot read") &&
                                      Catch::Contains("directory"));

  if (::geteuid() != 0) {  // root reads files whatever their mode
    fs::path secret = dir.write("secret.yaml", "log: {level: info}");
    fs::permissions(secret, fs::perms::none);
    LoadResult denied = load_from_file(secret);
    REQUIRE(denied.errors.size() == 1);
    CHECK_THAT(denied.errors[0],
               Catch::StartsWith(secret.string() + ": cannot open config file: ") &&
                   Catch::Contains("ermission denied"));
  }
}

TEST_CASE("a file larger than the limit is refused", "[lookup]") {
  TempDir dir;
  fs::path big = dir.write("big.yaml", std::string(kMaxConfigFileBytes + 1, '#'));
  LoadResult result = load_from_file(big);
  REQUIRE(result.errors.size() == 1);
  CHECK_THAT(result.errors[0], Catch::Contains("larger than"));
}

TEST_CASE("an empty file gives the defaults", "[lookup]") {
  TempDir dir;
  LoadResult result = load_from_file(dir.write("empty.yaml", ""));
  REQUIRE(result.ok());
  CHECK(*result.config == Config{});
}
