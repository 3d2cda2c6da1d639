#include "flightrec/app/cli.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "flightrec/app/setup.h"

using namespace flightrec::app;

TEST_CASE("No arguments run the daemon with default paths", "[cli]") {
  const auto r = parse_command_line({});
  REQUIRE(r);
  CHECK(r->kind == CommandKind::daemon);
  CHECK(r->procfs == "/proc");
  CHECK_FALSE(r->config_file);
}

TEST_CASE("Flags take values after = or as the next argument", "[cli]") {
  const auto r =
      parse_command_line({"daemon", "--config.file=/etc/x.yaml", "--web.listen-address",
                          "0.0.0.0:1", "--path.procfs", "/fixtures/proc", "--log.level=debug"});
  REQUIRE(r);
  CHECK(r->config_file == "/etc/x.yaml");
  CHECK(r->web_listen_address == "0.0.0.0:1");
  CHECK(r->procfs == "/fixtures/proc");
  CHECK(r->log_level == "debug");
}

TEST_CASE("--web.config.file is a global flag", "[cli]") {
  auto r = parse_command_line({"--web.config.file=/etc/flightrec/web.yml"});
  REQUIRE(r);
  CHECK(r->web_config_file == "/etc/flightrec/web.yml");
  r = parse_command_line({"daemon", "--web.config.file", "web.yml"});
  REQUIRE(r);
  CHECK(r->web_config_file == "web.yml");
  CHECK_FALSE(parse_command_line({"daemon"})->web_config_file);
  CHECK_THAT(usage_text(), Catch::Matchers::Contains("--web.config.file=FILE"));
}

TEST_CASE("snapshot takes --output and --format", "[cli]") {
  const auto r = parse_command_line({"snapshot", "--format=json", "--output", "/tmp/s.json"});
  REQUIRE(r);
  CHECK(r->kind == CommandKind::snapshot);
  CHECK(r->format == "json");
  CHECK(r->output == "/tmp/s.json");
}

TEST_CASE("check-config takes a file and --print-defaults", "[cli]") {
  auto r = parse_command_line({"check-config", "my.yaml"});
  REQUIRE(r);
  CHECK(r->argument == "my.yaml");
  r = parse_command_line({"check-config", "--print-defaults"});
  REQUIRE(r);
  CHECK(r->print_defaults);
}

TEST_CASE("Help and version win wherever they stand", "[cli]") {
  const auto help = parse_command_line({"snapshot", "--help"});
  CHECK(help->kind == CommandKind::help);
  CHECK(help->help_for == CommandKind::snapshot);
  CHECK_FALSE(parse_command_line({"-h"})->help_for);
  CHECK(parse_command_line({"--version"})->kind == CommandKind::version);
  CHECK_THAT(version_text(), Catch::Matchers::StartsWith("flightrec, version "));
  CHECK_THAT(usage_text(), Catch::Matchers::Contains("--web.listen-address"));
}

TEST_CASE("Bad command lines get one line naming what was wrong", "[cli]") {
  CHECK(parse_command_line({"--bogus"}).error() == "unknown flag --bogus (see flightrec --help)");
  CHECK(parse_command_line({"frobnicate"}).error() ==
        "unknown command \"frobnicate\" (commands: daemon, snapshot, check-config, dump, "
        "incidents, top, replay; see --help)");
  CHECK(parse_command_line({"--config.file"}).error() == "flag --config.file needs a value");
  CHECK(parse_command_line({"--config.file="}).error() ==
        "flag --config.file needs a non-empty value");
  CHECK(parse_command_line({"snapshot", "--format=xml"}).error() ==
        "--format: \"xml\" is not json or text");
  CHECK(parse_command_line({"daemon", "--output=x"}).error() ==
        "--output only applies to `flightrec snapshot`");
  CHECK(parse_command_line({"--print-defaults=yes", "check-config"}).error() ==
        "--print-defaults takes no value");
  CHECK(parse_command_line({"daemon", "extra"}).error() == "unexpected argument \"extra\"");
  CHECK(parse_command_line({"daemon", "--bogus"}).error() ==
        "unknown flag --bogus (see flightrec daemon --help)");
  // A typo of the command's own flag or of a global one is named.
  CHECK(parse_command_line({"snapshot", "--fromat=json"}).error() ==
        "unknown flag --fromat; did you mean --format? (see flightrec snapshot --help)");
  CHECK(parse_command_line({"--web.listen-adress=:9000"}).error() ==
        "unknown flag --web.listen-adress; did you mean --web.listen-address? (see flightrec "
        "--help)");
  CHECK(parse_command_line({"incidents", "--format=csv"}).error() ==
        "--format only applies to `flightrec snapshot` and `flightrec dump`");
}

TEST_CASE("Flags before the command word and a flag value that looks like a word", "[cli]") {
  const auto r = parse_command_line({"--config.file", "dump", "incidents", "--dir=/x"});
  REQUIRE(r);
  CHECK(r->kind == CommandKind::incidents);
  CHECK(r->config_file == "dump");
  CHECK(r->dir == "/x");
}

TEST_CASE("incidents takes one incident id to show in full", "[cli]") {
  const auto r = parse_command_line({"incidents", "20261201T144351.428Z-alert", "--dir=/x"});
  REQUIRE(r);
  CHECK(r->kind == CommandKind::incidents);
  CHECK(r->argument == "20261201T144351.428Z-alert");
  CHECK(parse_command_line({"incidents", "a", "b"}).error() == "unexpected argument \"b\"");
}

TEST_CASE("top and replay get every argument after their word", "[cli]") {
  const auto r = parse_command_line({"--path.procfs=/p", "top", "-n", "2", "--net"});
  REQUIRE(r);
  CHECK(r->kind == CommandKind::top);
  CHECK(r->procfs == "/p");
  CHECK(r->command_args == std::vector<std::string>{"-n", "2", "--net"});
}

TEST_CASE("Each command's help lists its own flags and the global ones", "[cli]") {
  const std::string snapshot = usage_text(CommandKind::snapshot);
  CHECK_THAT(snapshot, Catch::Matchers::StartsWith("usage: flightrec snapshot [flags]"));
  CHECK_THAT(snapshot, Catch::Matchers::Contains("--output=FILE"));
  CHECK_THAT(snapshot, Catch::Matchers::Contains("--config.file=PATH"));
  CHECK_THAT(usage_text(CommandKind::top), Catch::Matchers::Contains("-n, --iterations=N"));
  CHECK_THAT(usage_text(CommandKind::replay), Catch::Matchers::Contains("--batch"));
  for (const char* command : {"snapshot", "check-config", "dump", "incidents", "top", "replay"}) {
    CHECK_THAT(usage_text(), Catch::Matchers::Contains(std::string("  ") + command));
  }
}

TEST_CASE("--web.max-requests overrides web.max_requests; a value out of range is named", "[cli]") {
  const auto config = std::filesystem::temp_directory_path() / "flightrec-cli-max-requests.yaml";
  std::ofstream(config) << "web:\n  max_requests: 7\n";
  auto r = parse_command_line({"daemon", "--config.file=" + config.string()});
  REQUIRE(r);
  auto setup = load_setup(*r);
  REQUIRE(setup.config);
  CHECK(setup.config->web.max_requests == 7);
  r = parse_command_line({"daemon", "--config.file=" + config.string(), "--web.max-requests", "0"});
  REQUIRE(r);
  setup = load_setup(*r);
  REQUIRE(setup.config);
  CHECK(setup.config->web.max_requests == 0);
  for (const char* bad : {"-1", "10001", "many", "4x"}) {
    r = parse_command_line(
        {"daemon", "--config.file=" + config.string(), std::string("--web.max-requests=") + bad});
    REQUIRE(r);
    setup = load_setup(*r);
    CHECK_FALSE(setup.config);
    REQUIRE(setup.errors.size() == 1);
    CHECK(setup.errors[0] ==
          std::string("--web.max-requests: \"") + bad + "\" is not a number from 0 to 10000");
  }
  std::filesystem::remove(config);
}
