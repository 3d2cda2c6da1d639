// The shape of every kind of error: file and line, key path, the value written, what is allowed.
#include <catch2/catch.hpp>

#include "flightrec/config/loader.h"
#include "only_error.h"

using flightrec::config::Config;
using flightrec::config::load_from_string;
using flightrec::config::LoadResult;
using flightrec::config::testing::only_error;

TEST_CASE("a bad duration names file, line, key, value and examples", "[errors]") {
  CHECK(only_error("# comment\nsampler:\n  rate: 1xs\n") ==
        "flightrec.yaml:3: sampler.rate: \"1xs\" is not a duration (examples: 500us, 1ms, 2s)");
}

TEST_CASE("an out-of-range value says what is allowed", "[errors]") {
  CHECK(only_error("buffer:\n  duration: 2d\n") ==
        "flightrec.yaml:2: buffer.duration: \"2d\" is not a duration (examples: 500us, 1ms, 2s)");
  CHECK(only_error("buffer:\n  duration: 25h\n") ==
        "flightrec.yaml:2: buffer.duration: \"25h\" is out of range (allowed: 1s..24h)");
  CHECK(only_error("buffer:\n  max_bytes: 100KiB\n") ==
        "flightrec.yaml:2: buffer.max_bytes: \"100KiB\" is out of range (allowed: 1MiB..64GiB)");
  CHECK(only_error("buffer: {max_bytes: 12XB}") ==
        "flightrec.yaml:1: buffer.max_bytes: \"12XB\" is not a size (examples: 512KiB, 256MiB, "
        "1GiB, 1000000)");
  CHECK(only_error("sources:\n  netdev:\n    max_keys: 2000\n") ==
        "flightrec.yaml:3: sources.netdev.max_keys: \"2000\" is out of range (allowed: 1..1024)");
  CHECK(only_error("sources:\n  netdev:\n    max_keys: 1.5\n") ==
        "flightrec.yaml:3: sources.netdev.max_keys: \"1.5\" is not a whole number (allowed: "
        "1..1024)");
}

TEST_CASE("enums, booleans and addresses list their allowed values", "[errors]") {
  CHECK(only_error("log:\n  level: verbose\n") ==
        "flightrec.yaml:2: log.level: \"verbose\" is not allowed (allowed: debug, info, warn, "
        "error)");
  CHECK(only_error("sources:\n  stat:\n    enabled: maybe\n") ==
        "flightrec.yaml:3: sources.stat.enabled: \"maybe\" is not a boolean (allowed: true, "
        "false)");
  CHECK_THAT(only_error("web:\n  listen_address: 127.0.0.1:70000\n"),
             Catch::StartsWith("flightrec.yaml:2: web.listen_address: \"127.0.0.1:70000\" is not a "
                               "listen address (allowed: host:port or [ipv6]:port, port 0..65535"));
}

TEST_CASE("a regex that does not compile reports the regex error", "[errors]") {
  CHECK_THAT(only_error("sources:\n  diskstats:\n    include: '^(sd'\n"),
             Catch::StartsWith("flightrec.yaml:3: sources.diskstats.include: \"^(sd\" is not a "
                               "valid regex (") &&
                 Catch::Contains("allowed: RE2 regex"));
}

TEST_CASE("values are quoted with escapes so a message stays on one line", "[errors]") {
  CHECK(only_error("log:\n  level: \"a\\\"b\\nc\"\n") ==
        "flightrec.yaml:2: log.level: \"a\\\"b\\nc\" is not allowed (allowed: debug, info, warn, "
        "error)");
}

// check-config prints these lines to a terminal: a key is text from the file like a value, and
// one holding an escape sequence once cleared the screen of whoever checked the file.
TEST_CASE("a key path that is not printable UTF-8 is quoted with escapes", "[errors][unknown]") {
  CHECK(only_error("sampler:\n  \"r\\e[2Jate\": 4ms\n") ==
        "flightrec.yaml:2: \"sampler.r\\x1b[2Jate\": unknown key (known here: rate, process_rate, "
        "realtime, backend, cpu_budget)");
  CHECK(only_error("sampler:\n  rate\xff: 4ms\n") ==
        "flightrec.yaml:2: \"sampler.rate\\xff\": unknown key; did you mean \"sampler.rate\"?");
  CHECK(
      only_error("triggers:\n  - name: x\n    signal: cpu_busy_ratio\n    op: \">\"\n"
                 "    value: 1\n    \"\\e]0;pwn\\a\": 1\n") ==
      "flightrec.yaml:6: \"triggers[0].\\x1b]0;pwn\\x07\": unknown key (known here: name, signal, "
      "op, value, for, over, pre, post, cooldown)");
  // RE2's complaint quotes the pattern as it is.
  CHECK(only_error("incidents:\n  alerts:\n    match: [\"{sev=~\\\"(\\e[2J\\\"}\"]\n") ==
        "flightrec.yaml:3: incidents.alerts.match: set 1 \"{sev=~\\\"(\\x1b[2J\\\"}\": "
        "sev=~\"(\\x1b[2J\": not a valid regex (missing ]: [2J)$) (allowed: a list of matcher sets "
        "such as '{severity=\"critical\", instance=~\"web-.*\"}')");
  CHECK(only_error("log:\n  level: \"caf\xc3\xa9\xff\"\n") ==
        "flightrec.yaml:2: log.level: \"caf\xc3\xa9\\xff\" is not allowed (allowed: debug, info, "
        "warn, error)");
}

TEST_CASE("unknown keys get a did-you-mean hint for typos", "[errors][unknown]") {
  CHECK(only_error("sampler:\n  rat: 1ms\n") ==
        "flightrec.yaml:2: sampler.rat: unknown key; did you mean \"sampler.rate\"?");
  CHECK(only_error("smapler:\n  rate: 1ms\n") ==
        "flightrec.yaml:1: smapler: unknown section; did you mean \"sampler\"?");
  CHECK(only_error("sources:\n  netdev:\n    exlcude: lo\n") ==
        "flightrec.yaml:3: sources.netdev.exlcude: unknown key; did you mean "
        "\"sources.netdev.exclude\"?");
}

TEST_CASE("sources are the ones the embedded defaults declare; only keyed ones have filters",
          "[errors][unknown]") {
  CHECK(only_error("sources:\n  vmstats:\n    rate: 1s\n") ==
        "flightrec.yaml:2: sources.vmstats: unknown key; did you mean \"sources.vmstat\"?");
  CHECK(only_error("sources:\n  stat:\n    max_keys: 4\n") ==
        "flightrec.yaml:3: sources.stat.max_keys: unknown key; did you mean "
        "\"sources.diskstats.max_keys\"?");
  CHECK(only_error("sources:\n  loadavg:\n    rate: 11s\n") ==
        "flightrec.yaml:3: sources.loadavg.rate: \"11s\" is out of range (allowed: 100us..10s)");
}

TEST_CASE("a rule may not be named manual: incidents of POST /-/trigger carry that name",
          "[errors][triggers]") {
  CHECK_THAT(
      only_error("triggers:\n  - name: manual\n    signal: memory_used_bytes\n    op: \">\"\n"
                 "    value: 1\n"),
      Catch::Matchers::Contains("\"manual\" is reserved for manual incidents"));
}

TEST_CASE("a rule may not be named alert: incidents of alert notifications carry that name",
          "[errors][triggers]") {
  CHECK(only_error("triggers:\n  - name: alert\n    signal: memory_used_bytes\n    op: \">\"\n"
                   "    value: 1\n") ==
        "flightrec.yaml:2: triggers[0].name: \"alert\" is reserved for alert incidents (POST "
        "/-/trigger/alertmanager, /-/trigger/grafana)");
}

TEST_CASE("a known key in the wrong section points to where it belongs", "[errors][unknown]") {
  CHECK(only_error("sampler:\n  max_bytes: 1GiB\n") ==
        "flightrec.yaml:2: sampler.max_bytes: unknown key; did you mean \"buffer.max_bytes\"?");
}

TEST_CASE("a dotted key explains that keys are nested", "[errors][unknown]") {
  CHECK(only_error("sampler.rate: 1ms\n") ==
        "flightrec.yaml:1: sampler.rate: unknown section; keys are nested maps, not dotted names: "
        "write it as \"sampler:\" with the rest indented beneath");
}

TEST_CASE("an unknown key with no close match lists the keys known there", "[errors][unknown]") {
  CHECK(only_error("plugins:\n  x: 1\n") ==
        "flightrec.yaml:1: plugins: unknown section (known here: sampler, buffer, sources, "
        "processes, network, containers, export, incidents, web, log, triggers, thresholds)");
  CHECK(only_error("sampler:\n  frequency: 1ms\n") ==
        "flightrec.yaml:2: sampler.frequency: unknown key (known here: rate, process_rate, "
        "realtime, backend, cpu_budget)");
}

TEST_CASE("wrong node types are errors, not defaults", "[errors][types]") {
  CHECK(only_error("sampler:\n  rate: {a: 1}\n") ==
        "flightrec.yaml:2: sampler.rate: expected a duration (allowed: 100us..10s), got a map");
  CHECK(only_error("sampler:\n  rate: [1ms, 2ms]\n") ==
        "flightrec.yaml:2: sampler.rate: expected a duration (allowed: 100us..10s), got a list");
  CHECK(only_error("sampler:\n  rate:\n") ==
        "flightrec.yaml:2: sampler.rate: expected a duration (allowed: 100us..10s), got no value");
  CHECK(only_error("sampler: 1ms\n") ==
        "flightrec.yaml:1: sampler: expected a map of keys (rate, process_rate, realtime, "
        "backend, cpu_budget), got the value \"1ms\"");
  CHECK(only_error("sources:\n  - stat\n") ==
        "flightrec.yaml:1: sources: expected a map of keys (cgroup_cpu, diskstats, loadavg, "
        "meminfo, netdev, pressure, stat, vmstat), got a list");
  CHECK(only_error("sources:\n  stat:\n    enabled: 1\n") ==
        "flightrec.yaml:3: sources.stat.enabled: \"1\" is not a boolean (allowed: true, false)");
}

TEST_CASE("the top level must be a map", "[errors][types]") {
  CHECK_THAT(only_error("just text\n"),
             Catch::StartsWith("flightrec.yaml:1: the top level must be a map of sections "
                               "(sampler, buffer, sources, processes, network, containers, export, "
                               "incidents, web, log, triggers, "
                               "thresholds), got the value \"just text\""));
  CHECK_THAT(only_error("- a\n- b\n"), Catch::EndsWith("got a list"));
}

TEST_CASE("non-scalar keys are errors", "[errors][types]") {
  CHECK(only_error("sampler:\n  ? [a, b]\n  : 1ms\n") ==
        "flightrec.yaml:2: sampler: a key must be a plain name, got a list");
}

TEST_CASE("duplicate keys are errors naming the first occurrence", "[errors]") {
  CHECK(only_error("sampler:\n  rate: 1ms\n  rate: 2ms\n") ==
        "flightrec.yaml:3: sampler.rate: duplicate key (first written on line 2)");
}

TEST_CASE("YAML syntax errors carry line and column", "[errors][syntax]") {
  CHECK_THAT(only_error("sampler:\n  rate: [1ms\n"),
             Catch::StartsWith("flightrec.yaml:") && Catch::Contains(": YAML syntax error: "));
  CHECK_THAT(only_error("sampler:\n  rate: 1ms\n bad: indent\n"),
             Catch::StartsWith("flightrec.yaml:3:2: YAML syntax error: "));
  CHECK_THAT(only_error("a: *undefined_anchor\n"),
             Catch::StartsWith("flightrec.yaml:1:") && Catch::Contains("YAML syntax error"));
}

TEST_CASE("nesting past the parser's depth limit says so, with the limit", "[errors][syntax]") {
  const std::string deep = "sampler: " + std::string(10000, '[') + std::string(10000, ']') + "\n";
  CHECK_THAT(only_error(deep),
             Catch::StartsWith("flightrec.yaml:1:") &&
                 Catch::EndsWith(": YAML nesting depth limit exceeded: lists and maps nest at "
                                 "most 499 levels deep"));
  // The top-level map and 498 lists below it are within the limit: an ordinary error follows.
  CHECK(only_error("sampler: " + std::string(498, '[') + std::string(498, ']') + "\n") ==
        "flightrec.yaml:1: sampler: expected a map of keys (rate, process_rate, realtime, backend, "
        "cpu_budget), got a list");
  CHECK_THAT(only_error("sampler: " + std::string(499, '{') + std::string(499, '}') + "\n"),
             Catch::EndsWith("YAML nesting depth limit exceeded: lists and maps nest at most 499 "
                             "levels deep"));
}

TEST_CASE("a stray comma at the top level is a syntax error, not a hang", "[errors][syntax]") {
  // yaml-cpp 0.7's LoadAll alone loops forever on these (found by tests/fuzz/config_fuzz.cpp).
  CHECK(only_error(",a") == "flightrec.yaml:1:1: YAML syntax error: unexpected \",\"");
  CHECK(only_error("\"x\",a") == "flightrec.yaml:1:4: YAML syntax error: unexpected \",\"");
}

TEST_CASE("more than one YAML document is an error", "[errors][syntax]") {
  CHECK(only_error("log: {level: info}\n---\nlog: {level: debug}\n") ==
        "flightrec.yaml:2: only one YAML document is allowed, found another here");
}

TEST_CASE("every error in a file is reported, in document order", "[errors]") {
  LoadResult result = load_from_string(
      "sampler:\n  rate: 1xs\nbuffer:\n  max_bytes: 0\nlog:\n  levle: info\n", "f.yaml");
  CHECK_FALSE(result.config.has_value());
  REQUIRE(result.errors.size() == 3);
  CHECK_THAT(result.errors[0], Catch::StartsWith("f.yaml:2: sampler.rate:"));
  CHECK_THAT(result.errors[1], Catch::StartsWith("f.yaml:4: buffer.max_bytes:"));
  CHECK_THAT(result.errors[2], Catch::StartsWith("f.yaml:6: log.levle: unknown key"));
}

TEST_CASE("a rule between keys is not reported when one of them is already invalid", "[errors]") {
  // rate: 20s is out of range (kept at default), so "process_rate >= rate" must not add noise.
  LoadResult result = load_from_string("sampler: {rate: 20s}", "f.yaml");
  REQUIRE(result.errors.size() == 1);
  CHECK_THAT(result.errors[0], Catch::Contains("out of range"));
}

TEST_CASE("empty input, comments only and empty sections give the defaults", "[errors][empty]") {
  for (const char* yaml :
       {"", "\n\n", "# nothing here\n", "---\n", "sampler:\n", "sources:\n  stat:\n"}) {
    INFO("yaml: " << yaml);
    LoadResult result = load_from_string(yaml, "empty.yaml");
    CHECK(result.errors.empty());
    REQUIRE(result.config.has_value());
    CHECK(*result.config == Config{});
  }
}

TEST_CASE("a regex using what RE2 does not run (a back-reference) is refused at load", "[errors]") {
  CHECK_THAT(only_error("processes:\n  redact_cmdline: '(x)\\1'\n"),
             Catch::StartsWith("flightrec.yaml:2: processes.redact_cmdline: ") &&
                 Catch::Contains("is not a valid regex (invalid escape sequence"));
}

TEST_CASE("a CPU budget is a percentage within its range, or 0 for off", "[errors]") {
  CHECK(only_error("sampler:\n  cpu_budget: 0.1\n") ==
        "flightrec.yaml:2: sampler.cpu_budget: \"0.1\" is not a percentage (examples: 10%, 2.5%; "
        "allowed: 0 (off) or 0.1%..400%)");
  CHECK(only_error("sampler:\n  cpu_budget: 0.05%\n") ==
        "flightrec.yaml:2: sampler.cpu_budget: \"0.05%\" is out of range (allowed: 0 (off) or "
        "0.1%..400%)");
  CHECK(only_error("sampler:\n  cpu_budget: 500%\n") ==
        "flightrec.yaml:2: sampler.cpu_budget: \"500%\" is out of range (allowed: 0 (off) or "
        "0.1%..400%)");
  CHECK(only_error("sampler:\n  cpu_budget: ten%\n") ==
        "flightrec.yaml:2: sampler.cpu_budget: \"ten%\" is not a percentage (examples: 10%, 2.5%; "
        "allowed: 0 (off) or 0.1%..400%)");
  LoadResult off = load_from_string("sampler:\n  cpu_budget: 0\n", "flightrec.yaml");
  REQUIRE(off.ok());
  CHECK(off.config->sampler.cpu_budget_ppm == 0);
  LoadResult quarter = load_from_string("sampler:\n  cpu_budget: 2.25%\n", "flightrec.yaml");
  REQUIRE(quarter.ok());
  CHECK(quarter.config->sampler.cpu_budget_ppm == 22'500);
}
