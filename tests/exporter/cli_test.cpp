#include <catch2/catch.hpp>

#include "flightrec/exporter/cli.h"

using namespace flightrec::exporter;

TEST_CASE("No arguments run the daemon with default paths", "[cli]") {
  const auto r = parse_command_line({});
  REQUIRE(r.command);
  CHECK(r.command->kind == CommandKind::daemon);
  CHECK(r.command->procfs == "/proc");
  CHECK_FALSE(r.command->config_file);
}

TEST_CASE("Flags take values after = or as the next argument", "[cli]") {
  const auto r = parse_command_line(
      {"daemon", "--config.file=/etc/x.yaml", "--web.listen-address", "0.0.0.0:1", "--path.procfs",
       "/fixtures/proc", "--log.level=debug"});
  REQUIRE(r.command);
  CHECK(r.command->config_file == "/etc/x.yaml");
  CHECK(r.command->web_listen_address == "0.0.0.0:1");
  CHECK(r.command->procfs == "/fixtures/proc");
  CHECK(r.command->log_level == "debug");
}

TEST_CASE("snapshot takes --output and --format", "[cli]") {
  const auto r = parse_command_line({"snapshot", "--format=json", "--output", "/tmp/s.json"});
  REQUIRE(r.command);
  CHECK(r.command->kind == CommandKind::snapshot);
  CHECK(r.command->format == "json");
  CHECK(r.command->output == "/tmp/s.json");
}

TEST_CASE("check-config takes a file and --print-defaults", "[cli]") {
  auto r = parse_command_line({"check-config", "my.yaml"});
  REQUIRE(r.command);
  CHECK(r.command->check_file == "my.yaml");
  r = parse_command_line({"check-config", "--print-defaults"});
  REQUIRE(r.command);
  CHECK(r.command->print_defaults);
}

TEST_CASE("Help and version win wherever they stand", "[cli]") {
  CHECK(parse_command_line({"snapshot", "--help"}).command->kind == CommandKind::help);
  CHECK(parse_command_line({"--version"}).command->kind == CommandKind::version);
  CHECK_THAT(version_text(), Catch::Matchers::StartsWith("flightrec, version "));
  CHECK_THAT(usage_text(), Catch::Matchers::Contains("--web.listen-address"));
}

TEST_CASE("Bad command lines get one line naming what was wrong", "[cli]") {
  CHECK(parse_command_line({"--bogus"}).error == "unknown flag --bogus (see flightrec --help)");
  CHECK_THAT(parse_command_line({"frobnicate"}).error,
             Catch::Matchers::StartsWith("unknown command \"frobnicate\""));
  CHECK(parse_command_line({"--config.file"}).error == "flag --config.file needs a value");
  CHECK(parse_command_line({"--config.file="}).error ==
        "flag --config.file needs a non-empty value");
  CHECK(parse_command_line({"snapshot", "--format=xml"}).error ==
        "--format: \"xml\" is not json or text");
  CHECK(parse_command_line({"daemon", "--output=x"}).error ==
        "--output only applies to `flightrec snapshot`");
  CHECK(parse_command_line({"--print-defaults=yes", "check-config"}).error ==
        "--print-defaults takes no value");
  CHECK(parse_command_line({"daemon", "extra"}).error == "unexpected argument \"extra\"");
}
