// Range edges of every key, driven by the key table (so new keys are covered automatically), plus
// the ranges the issue specifies, pinned by hand so the table cannot drift away from them.
#include <catch2/catch.hpp>
#include <string>
#include <variant>

#include "flightrec/config/loader.h"
#include "flightrec/config/schema.h"
#include "flightrec/config/units.h"
#include "yaml_for_key.h"

using namespace flightrec::config;
using testing::KeyValues;
using testing::yaml_for_keys;

namespace {

// Loads `value` for `key`, plus `context` keys that a rule between keys needs.
LoadResult load_key(const KeySpec& key, const std::string& value, KeyValues context = {}) {
  context.emplace_back(key.path, value);
  return load_from_string(yaml_for_keys(context), "edges.yaml");
}

void require_accepted(const KeySpec& key, const std::string& value, KeyValues context = {}) {
  INFO("key: " << key.path << ", value: " << value);
  LoadResult result = load_key(key, value, std::move(context));
  INFO("first error: " << (result.errors.empty() ? "" : result.errors[0]));
  REQUIRE(result.errors.empty());
  REQUIRE(result.config.has_value());
  CHECK(value_text(key, *result.config) == value);
}

void require_rejected(const KeySpec& key, const std::string& value) {
  INFO("key: " << key.path << ", value: " << value);
  LoadResult result = load_key(key, value);
  CHECK_FALSE(result.config.has_value());
  REQUIRE(result.errors.size() == 1);
  // Long values are shortened in messages; their start is enough to recognise them.
  CHECK_THAT(result.errors[0],
             Catch::StartsWith("edges.yaml:") && Catch::Contains(std::string(key.path) + ": ") &&
                 Catch::Contains(value.substr(0, 40)) && Catch::Contains(allowed_values(key)));
}

// At its minimum a key may undercut the key it must be at least; lower that one too, and the one
// that one must be at least, in turn.
KeyValues lower_what_it_depends_on(const DurationRule& rule) {
  if (rule.at_least_key.empty()) return {};
  const auto& other = std::get<DurationRule>(find_key(rule.at_least_key)->rule);
  KeyValues lowered{{std::string(rule.at_least_key), format_duration(other.min)}};
  for (auto& further : lower_what_it_depends_on(other)) lowered.push_back(std::move(further));
  return lowered;
}

// At its maximum a key may exceed the keys that must be at least it; raise those to their maximum,
// and the keys that must be at least those (containers.fast_rate, rate, detail_rate), in turn.
KeyValues raise_what_depends_on(const KeySpec& key) {
  KeyValues raised;
  for (const KeySpec& other : schema()) {
    const auto* rule = std::get_if<DurationRule>(&other.rule);
    if (rule != nullptr && rule->at_least_key == key.path) {
      raised.emplace_back(other.path, format_duration(rule->max));
      for (auto& further : raise_what_depends_on(other)) raised.push_back(std::move(further));
    }
  }
  return raised;
}

}  // namespace

TEST_CASE("every key accepts its range edges and rejects one step beyond", "[schema][ranges]") {
  using namespace std::chrono_literals;
  for (const KeySpec& key : schema()) {
    if (const auto* rule = std::get_if<DurationRule>(&key.rule)) {
      require_accepted(key, format_duration(rule->min), lower_what_it_depends_on(*rule));
      require_accepted(key, format_duration(rule->max), raise_what_depends_on(key));
      require_rejected(key, format_duration(rule->min - 1ns));
      require_rejected(key, format_duration(rule->max + 1ns));
    } else if (const auto* size = std::get_if<SizeRule>(&key.rule)) {
      require_accepted(key, format_size(size->min));
      require_accepted(key, format_size(size->max));
      require_rejected(key, format_size(size->min - 1));
      require_rejected(key, format_size(size->max + 1));
    } else if (const auto* count = std::get_if<CountRule>(&key.rule)) {
      require_accepted(key, std::to_string(count->min));
      require_accepted(key, std::to_string(count->max));
      require_rejected(key, std::to_string(count->min - 1));
      require_rejected(key, std::to_string(count->max + 1));
    } else if (std::holds_alternative<BoolRule>(key.rule)) {
      require_accepted(key, "true");
      require_accepted(key, "false");
      require_rejected(key, "yes");
    } else if (std::holds_alternative<RegexRule>(key.rule)) {
      require_accepted(key, "^(sd[a-z]+|eth\\d)$");
      require_accepted(key, std::string(kMaxRegexLength, 'a'));
      require_rejected(key, "(sd");
      require_rejected(key, std::string(kMaxRegexLength + 1, 'a'));
    } else if (std::holds_alternative<ListenAddressRule>(key.rule)) {
      require_accepted(key, "0.0.0.0:0");
      require_accepted(key, "[::1]:65535");
      require_rejected(key, "localhost:65536");
    } else if (std::holds_alternative<PathRule>(key.rule)) {
      require_accepted(key, "/var/lib/flightrec/x y");
      require_rejected(key, "");
    } else if (const auto* percent = std::get_if<PercentRule>(&key.rule)) {
      require_accepted(key, format_percent_ppm(percent->min_ppm));
      require_accepted(key, format_percent_ppm(percent->max_ppm));
      require_rejected(key, format_percent_ppm(percent->min_ppm - 1));
      require_rejected(key, format_percent_ppm(percent->max_ppm + 1));
      if (percent->zero_is_off) require_accepted(key, "0");
    } else if (const auto* choice = std::get_if<ChoiceRule>(&key.rule)) {
      for (std::string_view allowed : choice->choices) require_accepted(key, std::string(allowed));
      require_rejected(key, "verbose");
    } else if (std::holds_alternative<RoleListRule>(key.rule)) {
      require_accepted(key, "auto");
      require_accepted(key, "[]");
      require_accepted(key, "[metrics, recordings, actions]");
      require_rejected(key, "admin");
    } else if (std::holds_alternative<UserRolesRule>(key.rule)) {
      require_accepted(key, "{}");
      require_accepted(key, "{a: [metrics, recordings, actions], b: []}");
      require_rejected(key, "metrics");
    } else if (std::holds_alternative<AlertMatchRule>(key.rule)) {
      require_accepted(key, "[]");
      require_accepted(key, "['{severity=\"critical\"}', 'instance=~\"web-.*\", team!=db']");
      require_rejected(key, "severity=critical");
    } else {
      FAIL("no edge test for the rule type of " << key.path);
    }
  }
}

TEST_CASE("key ranges match the ones the issue specifies", "[schema][ranges]") {
  struct Pinned {
    const char* path;
    const char* lowest;
    const char* highest;
    const char* too_low;
    const char* too_high;
    KeyValues context = {};  // other keys a rule between keys needs
  };
  for (const Pinned& pin : {
           Pinned{"sampler.rate", "100us", "10s", "99us", "11s", {{"sampler.process_rate", "10s"}}},
           Pinned{
               "sampler.process_rate", "100us", "60s", "99us", "61s", {{"sampler.rate", "100us"}}},
           Pinned{"sampler.cpu_budget", "0.1%", "400%", "0.0999%", "400.0001%"},
           Pinned{"buffer.duration", "1s", "24h", "999ms", "25h"},
           Pinned{"buffer.max_bytes", "1MiB", "64GiB", "1023KiB", "65GiB"},
           Pinned{"sources.stat.rate", "100us", "10s", "99us", "11s"},
           Pinned{"sources.vmstat.rate", "100us", "10s", "99us", "11s"},
           Pinned{"sources.diskstats.max_keys", "1", "1024", "0", "1025"},
           Pinned{"sources.netdev.max_keys", "1", "1024", "0", "1025"},
           Pinned{"web.listen_address", "[::1]:0", "127.0.0.1:65535", "127.0.0.1:", "[::1]:65536"},
       }) {
    INFO("key: " << pin.path);
    auto loads = [&](const char* value) {
      KeyValues keys = pin.context;
      keys.emplace_back(pin.path, value);
      return load_from_string(yaml_for_keys(keys), "pin").ok();
    };
    CHECK(loads(pin.lowest));
    CHECK(loads(pin.highest));
    CHECK_FALSE(loads(pin.too_low));
    CHECK_FALSE(loads(pin.too_high));
  }
}

TEST_CASE("process_rate may equal but not undercut sampler.rate", "[schema][ranges]") {
  CHECK(load_from_string("sampler: {rate: 5ms, process_rate: 5ms}", "t").ok());
  LoadResult faster = load_from_string("sampler:\n  rate: 5ms\n  process_rate: 4ms\n", "t.yaml");
  REQUIRE(faster.errors.size() == 1);
  CHECK(faster.errors[0] == "t.yaml:3: sampler.process_rate: 4ms must be >= sampler.rate (5ms)");
}

TEST_CASE("a sampler.rate above the default process_rate is reported at the rate's line",
          "[schema][ranges]") {
  LoadResult result = load_from_string("# slow\nsampler:\n  rate: 1s\n", "t.yaml");
  REQUIRE(result.errors.size() == 1);
  CHECK(result.errors[0] == "t.yaml:3: sampler.process_rate: 250ms must be >= sampler.rate (1s)");
}

TEST_CASE("values are stored into the right Config fields", "[schema]") {
  LoadResult result = load_from_string(R"(
sampler: {rate: 2ms, process_rate: 1s}
buffer: {duration: 1h, max_bytes: 1GB}
sources:
  stat: {enabled: false, rate: 2ms}
  pressure: {enabled: false}
  diskstats: {include: '^sd', exclude: '', max_keys: 7}
  netdev: {enabled: false, rate: 50ms, include: '^eth', exclude: '^lo$', max_keys: 9}
web: {listen_address: '[::]:9100'}
log: {level: debug}
)",
                                       "t");
  REQUIRE(result.errors.empty());
  Config expected;
  expected.sampler.rate = std::chrono::milliseconds(2);
  expected.sampler.process_rate = std::chrono::seconds(1);
  expected.buffer.duration = std::chrono::hours(1);
  expected.buffer.max_bytes = 1'000'000'000;
  expected.sources.at("stat").enabled = false;
  expected.sources.at("stat").rate = std::chrono::milliseconds(2);
  expected.sources.at("pressure").enabled = false;
  expected.sources.at("diskstats").keys = {.filter = {"^sd", ""}, .max_keys = 7};
  expected.sources.at("netdev") = {.enabled = false,
                                   .rate = std::chrono::milliseconds(50),
                                   .keys = {{.filter = {"^eth", "^lo$"}, .max_keys = 9}}};
  expected.web.listen_address = "[::]:9100";
  expected.log.level = "debug";
  CHECK(*result.config == expected);
}
