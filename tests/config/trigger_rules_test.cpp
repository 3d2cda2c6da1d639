// `triggers:` and the `thresholds:` shorthand: what loads, and the shape of every error.
#include "flightrec/config/trigger_rules.h"

#include <catch2/catch.hpp>

#include "flightrec/config/container_signals.h"
#include "flightrec/config/loader.h"

using namespace flightrec::config;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> errors_of(const std::string& yaml) {
  LoadResult result = load_from_string(yaml, "flightrec.yaml");
  INFO("yaml:\n" << yaml);
  CHECK_FALSE(result.ok());
  return result.errors;
}

std::string only_error(const std::string& yaml) {
  auto errors = errors_of(yaml);
  INFO("yaml:\n" << yaml);
  REQUIRE(errors.size() == 1);
  return errors[0];
}

std::vector<TriggerRule> rules_of(const std::string& yaml) {
  LoadResult result = load_from_string(yaml, "flightrec.yaml");
  INFO("errors: " << (result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  return result.config->triggers;
}

const char* kRule =
    "triggers:\n"
    "  - name: cpu_hot\n"
    "    signal: 'cpu_busy_ratio{cpu=\"total\"}'\n"
    "    op: '>='\n"
    "    value: 0.9\n";

}  // namespace

TEST_CASE("a rule loads with its defaults for for, pre, post and cooldown", "[triggers]") {
  auto rules = rules_of(kRule);
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].name == "cpu_hot");
  CHECK(rules[0].signal == "cpu_busy_ratio{cpu=\"total\"}");
  CHECK(rules[0].selector.name == "cpu_busy_ratio");
  CHECK(rules[0].selector.labels == std::vector<LabelMatcher>{{"cpu", MatchOp::equal, "total"}});
  CHECK(rules[0].op == Comparison::greater_equal);
  CHECK(rules[0].value == Approx(0.9));
  CHECK(rules[0].hold == 0ms);
  CHECK_FALSE(rules[0].pre.has_value());
  CHECK(rules[0].post == 5s);
  CHECK(rules[0].cooldown == 60s);
  CHECK(rules[0].line == 2);
}

TEST_CASE("a rule takes durations and sizes with units", "[triggers]") {
  auto rules = rules_of(
      "triggers:\n"
      "  - {name: mem, signal: memory_used_bytes, op: '>', value: 8GiB, for: 50ms, pre: 1m,"
      " post: 0, cooldown: 2m}\n");
  REQUIRE(rules.size() == 1);
  CHECK(rules[0].value == Approx(8.0 * (1ull << 30)));
  CHECK(rules[0].hold == 50ms);
  CHECK(rules[0].pre == std::optional<Duration>(1min));
  CHECK(rules[0].post == 0s);
  CHECK(rules[0].cooldown == 2min);
}

TEST_CASE("the thresholds shorthand becomes named rules after the listed ones", "[triggers]") {
  auto rules =
      rules_of(std::string(kRule) + "thresholds: {cpu_percent: 80.0, mem_bytes: 8000000000}\n");
  REQUIRE(rules.size() == 3);
  CHECK(rules[0].name == "cpu_hot");
  CHECK(rules[1].name == "cpu_percent");
  CHECK(rules[1].signal == "cpu_busy_ratio{cpu=\"total\"}");
  CHECK(rules[1].op == Comparison::greater);
  CHECK(rules[1].value == Approx(0.8));
  CHECK(rules[2].name == "mem_bytes");
  CHECK(rules[2].selector.name == "memory_used_bytes");
  CHECK(rules[2].value == Approx(8e9));
}

TEST_CASE("an empty triggers list and the defaults have no rules", "[triggers]") {
  CHECK(rules_of("triggers: []\n").empty());
  CHECK(rules_of("triggers:\n").empty());
  CHECK(Config{}.triggers.empty());
}

TEST_CASE("over: an averaging window loads, and shows in the rule's condition",
          "[triggers][over]") {
  auto plain = rules_of(kRule);
  REQUIRE(plain.size() == 1);
  CHECK_FALSE(plain[0].over.has_value());
  CHECK(condition_text(plain[0]) == "cpu_busy_ratio{cpu=\"total\"} >= 0.9");

  auto averaged = rules_of(std::string(kRule) + "    over: 1500ms\n    for: 2s\n");
  REQUIRE(averaged.size() == 1);
  CHECK(averaged[0].over == 1500ms);
  CHECK(averaged[0].hold == 2s);
  CHECK(condition_text(averaged[0]) == "avg_over_time(cpu_busy_ratio{cpu=\"total\"}[1.5s]) >= 0.9");
}

TEST_CASE("over: zero, too long, not a duration, or on a container rule is an error",
          "[triggers][over][errors]") {
  CHECK(only_error(std::string(kRule) + "    over: 0s\n") ==
        "flightrec.yaml:6: triggers[0].over: \"0s\" is out of range (allowed: 1ms..10m)");
  CHECK(only_error(std::string(kRule) + "    over: 11m\n") ==
        "flightrec.yaml:6: triggers[0].over: \"11m\" is out of range (allowed: 1ms..10m)");
  CHECK(only_error(std::string(kRule) + "    over: a while\n") ==
        "flightrec.yaml:6: triggers[0].over: \"a while\" is not a duration (examples: 500us, 1ms, "
        "2s)");
  CHECK(only_error("triggers:\n"
                   "  - name: throttled\n"
                   "    over: 1s\n"
                   "    signal: container_cpu_throttled_ratio\n"
                   "    op: '>'\n"
                   "    value: 0.5\n") ==
        "flightrec.yaml:3: triggers[0].over: rule \"throttled\": container rules have no \"over\" "
        "(it averages the system frames' ticks; see docs/TRIGGERS.md, \"Container rules\")");
}

TEST_CASE("a bad comparison names the rule by position", "[triggers][errors]") {
  CHECK(only_error(std::string(kRule) +
                   "  - {name: b, signal: memory_used_bytes, op: '>>', value: 1}\n") ==
        "flightrec.yaml:6: triggers[1].op: \">>\" is not a comparison (allowed: >, >=, <, <=)");
}

TEST_CASE("bad values in a rule say what is allowed", "[triggers][errors]") {
  auto rule = [](const std::string& extra) {
    return "triggers:\n  - name: r\n    signal: memory_used_bytes\n    op: '>'\n" + extra;
  };
  CHECK(only_error(rule("    value: lots\n")) ==
        "flightrec.yaml:5: triggers[0].value: \"lots\" is not a number (examples: 0.8, -1, 1e9, "
        "8GiB)");
  CHECK(only_error(rule("    value: 1\n    for: soon\n")) ==
        "flightrec.yaml:6: triggers[0].for: \"soon\" is not a duration (examples: 500us, 1ms, 2s)");
  CHECK(only_error(rule("    value: 1\n    post: 2h\n")) ==
        "flightrec.yaml:6: triggers[0].post: \"2h\" is out of range (allowed: 0..1h)");
  CHECK(only_error(rule("    value: [1, 2]\n")) ==
        "flightrec.yaml:5: triggers[0].value: expected a single value, got a list");
  CHECK(only_error("triggers:\n  - {name: 'CPU hot', signal: x, op: '>', value: 1}\n") ==
        "flightrec.yaml:2: triggers[0].name: \"CPU hot\" is not a rule name (allowed: one or more "
        "of a-z, 0-9, _ and -)");
  CHECK(only_error("triggers:\n  - {name: a, signal: 'cpu{cpu=0}', op: '>', value: 1}\n") ==
        "flightrec.yaml:2: triggers[0].signal: \"cpu{cpu=0}\" is not a signal selector (examples: "
        "memory_used_bytes, cpu_busy_ratio{cpu=\"total\"}, "
        "pressure_stall_ratio{resource=\"io\",kind=\"some\"})");
}

TEST_CASE("an unknown key in a rule gets a did-you-mean", "[triggers][errors]") {
  CHECK(only_error(std::string(kRule) + "    cooldwn: 1m\n") ==
        "flightrec.yaml:6: triggers[0].cooldwn: unknown key; did you mean "
        "\"triggers[0].cooldown\"?");
  CHECK(only_error(std::string(kRule) + "    colour: red\n") ==
        "flightrec.yaml:6: triggers[0].colour: unknown key (known here: name, signal, op, value, "
        "for, over, pre, post, cooldown)");
  CHECK(only_error(std::string(kRule) + "    op: '<'\n") ==
        "flightrec.yaml:6: triggers[0].op: duplicate key (first written on line 4)");
}

TEST_CASE("missing name, signal, op or value is an error each", "[triggers][errors]") {
  CHECK(only_error("triggers:\n  - {signal: x, op: '>', value: 1}\n") ==
        "flightrec.yaml:2: triggers[0]: missing key \"name\" (required: name, signal, op, value)");
  auto errors = errors_of("triggers:\n  - name: a\n");
  REQUIRE(errors.size() == 3);
  CHECK(
      errors[0] ==
      "flightrec.yaml:2: triggers[0]: missing key \"signal\" (required: name, signal, op, value)");
  CHECK(errors[1] ==
        "flightrec.yaml:2: triggers[0]: missing key \"op\" (required: name, signal, op, value)");
  CHECK(errors[2] ==
        "flightrec.yaml:2: triggers[0]: missing key \"value\" (required: name, signal, op, value)");
}

TEST_CASE("a rule name may be used once, shorthand included", "[triggers][errors]") {
  CHECK(only_error(std::string(kRule) +
                   "  - {name: cpu_hot, signal: memory_used_bytes, op: '>', value: 1}\n") ==
        "flightrec.yaml:6: triggers[1].name: rule name \"cpu_hot\" is already used (on line 2)");
  CHECK(only_error("triggers:\n  - {name: mem_bytes, signal: memory_used_bytes, op: '>', value: "
                   "1}\nthresholds:\n  mem_bytes: 1GB\n") ==
        "flightrec.yaml:4: thresholds.mem_bytes: rule name \"mem_bytes\" is already used (on line "
        "2)");
}

TEST_CASE("the shape of triggers and thresholds is checked", "[triggers][errors]") {
  CHECK(only_error("triggers: {name: a}\n") ==
        "flightrec.yaml:1: triggers: expected a list of rules (each a map with name, signal, op, "
        "value), got a map");
  CHECK(only_error("triggers:\n  - cpu_hot\n") ==
        "flightrec.yaml:2: triggers[0]: expected a map of rule keys (name, signal, op, value, for, "
        "over, pre, post, cooldown), got the value \"cpu_hot\"");
  CHECK(only_error("thresholds:\n  cpu_percent: 120\n") ==
        "flightrec.yaml:2: thresholds.cpu_percent: \"120\" is not a percentage (allowed: 0..100)");
  CHECK(only_error("thresholds:\n  mem_bytes: many\n") ==
        "flightrec.yaml:2: thresholds.mem_bytes: \"many\" is not a size (examples: 512KiB, 256MiB, "
        "1GiB, 1000000)");
  CHECK(only_error("thresholds:\n  cpu_precent: 80\n") ==
        "flightrec.yaml:2: thresholds.cpu_precent: unknown key; did you mean "
        "\"thresholds.cpu_percent\"?");
  CHECK(only_error("trigers: []\n") ==
        "flightrec.yaml:1: trigers: unknown section; did you mean \"triggers\"?");
}

TEST_CASE("signal selectors: names, labels, spaces", "[triggers][selector]") {
  auto plain = parse_signal_selector("memory_used_bytes");
  REQUIRE(plain);
  CHECK(plain->labels.empty());
  auto two = parse_signal_selector("pressure_stall_ratio{ resource = \"memory\" , kind=\"some\" }");
  REQUIRE(two);
  CHECK(two->name == "pressure_stall_ratio");
  CHECK(two->labels == std::vector<LabelMatcher>{{"resource", MatchOp::equal, "memory"},
                                                 {"kind", MatchOp::equal, "some"}});
  CHECK(parse_signal_selector("cpu_busy_ratio{}"));
  for (const char* bad :
       {"", "Cpu", "1cpu", "cpu{", "cpu{cpu=0}", "cpu{cpu=\"0\"", "cpu{cpu=\"0\",}",
        "cpu{cpu=\"0\",cpu=\"1\"}", "cpu{cpu=\"a\\db\"}", "cpu{cpu=\"a\\\"}", "cpu{cpu==\"0\"}",
        "cpu{cpu~\"0\"}", "cpu{cpu=!\"0\"}", "cpu x"}) {
    INFO("selector: " << bad);
    CHECK_FALSE(parse_signal_selector(bad));
  }
}

TEST_CASE("signal selectors: the four matchers and PromQL's escapes", "[triggers][selector]") {
  auto four = parse_signal_selector(
      "container_memory_fill{namespace=\"prod\", pod != \"web-1\",container=~\"app|db\","
      "image!~\"x\"}");
  REQUIRE(four);
  CHECK(four->labels == std::vector<LabelMatcher>{{"namespace", MatchOp::equal, "prod"},
                                                  {"pod", MatchOp::not_equal, "web-1"},
                                                  {"container", MatchOp::regex, "app|db"},
                                                  {"image", MatchOp::not_regex, "x"}});
  // \\ is a backslash, \" a quote: what a regex such as web-\d+ needs.
  auto escaped = parse_signal_selector("container_memory_fill{pod=~\"web-\\\\d+\\\"\"}");
  REQUIRE(escaped);
  CHECK(escaped->labels.at(0).value == "web-\\d+\"");
  CHECK(matcher_text(escaped->labels.at(0)) == "pod=~\"web-\\\\d+\\\"\"");
}

TEST_CASE("label matchers: regexes match the whole value, a missing label is empty",
          "[triggers][selector]") {
  const auto matcher = [](MatchOp op, std::string value) {
    auto compiled = CompiledMatcher::compile({"pod", op, std::move(value)});
    REQUIRE(compiled);
    return *compiled;
  };
  const auto web = matcher(MatchOp::regex, "web-[0-9]+");
  CHECK(web.matches("web-12"));
  CHECK_FALSE(web.matches("web-12x"));  // anchored at the end
  CHECK_FALSE(web.matches("xweb-12"));  // and at the start
  CHECK_FALSE(web.matches(""));
  const auto alternatives = matcher(MatchOp::regex, "a|b");  // anchored as a whole: ^(?:a|b)$
  CHECK(alternatives.matches("b"));
  CHECK_FALSE(alternatives.matches("ab"));
  const auto not_web = matcher(MatchOp::not_regex, "web-.*");
  CHECK(not_web.matches("db-0"));
  CHECK(not_web.matches(""));
  CHECK_FALSE(not_web.matches("web-"));
  const auto any = matcher(MatchOp::regex, ".*");
  CHECK(any.matches(""));
  const auto not_one = matcher(MatchOp::not_equal, "web-1");
  CHECK(not_one.matches(""));
  CHECK_FALSE(not_one.matches("web-1"));
  CHECK(matcher(MatchOp::equal, "").matches(""));
  const auto bad = CompiledMatcher::compile({"pod", MatchOp::regex, "web-(\\d+"});
  REQUIRE_FALSE(bad);
  CHECK(bad.error() ==
        "label matcher pod=~\"web-(\\\\d+\" is not a valid regex (missing ): web-(\\d+)");
}

TEST_CASE("comparisons hold as written and never on NaN", "[triggers]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const char* text : {">", ">=", "<", "<="}) {
    auto op = parse_comparison(text);
    REQUIRE(op);
    CHECK(comparison_text(*op) == text);
    CHECK_FALSE(compare(*op, nan, 0.0));
  }
  CHECK(compare(Comparison::greater, 2, 1));
  CHECK_FALSE(compare(Comparison::greater, 1, 1));
  CHECK(compare(Comparison::greater_equal, 1, 1));
  CHECK(compare(Comparison::less, 0, 1));
  CHECK(compare(Comparison::less_equal, 1, 1));
  CHECK_FALSE(compare(Comparison::less_equal, 2, 1));
  CHECK_FALSE(parse_comparison("=>"));
}

TEST_CASE("the example config's rules load", "[triggers][defaults]") {
  LoadResult result = load_from_file(FLIGHTREC_CONFIG_EXAMPLES "/flightrec.yaml");
  INFO("errors: " << (result.errors.empty() ? "" : result.errors.front()));
  REQUIRE(result.ok());
  REQUIRE(result.config->triggers.size() == 3);
  CHECK(result.config->triggers[0].name == "cpu_hot");
  CHECK(result.config->triggers[0].over == 1s);
  CHECK(result.config->triggers[1].selector.labels.size() == 2);
  CHECK(result.config->triggers[2].name == "mem_bytes");
  CHECK(result.config->incidents.dir == "/srv/flightrec/incidents");
  CHECK(Config{}.incidents.dir == "/var/lib/flightrec/incidents");
}

TEST_CASE("container rules: their signals and labels are checked at load, naming the key",
          "[triggers][containers]") {
  const auto rule_with = [](const std::string& signal) {
    return "triggers:\n"
           "  - name: hot\n"
           "    signal: '" +
           signal +
           "'\n"
           "    op: '>'\n"
           "    value: 0.5\n";
  };
  const auto rules = rules_of(rule_with(
      "container_cpu_throttled_ratio{namespace=\"prod\",pod=\"web-1\",container=\"app\"}"));
  REQUIRE(rules.size() == 1);
  CHECK(is_container_selector(rules[0].selector));
  CHECK(container_signal_of(rules[0].selector).ok());
  CHECK(only_error(rule_with("container_cpu_throttled_ration")) ==
        "flightrec.yaml:3: triggers[0].signal: \"container_cpu_throttled_ration\" is not a "
        "container signal (did you mean \"container_cpu_throttled_ratio\"?)");
  CHECK(only_error(rule_with("container_bogus")) ==
        "flightrec.yaml:3: triggers[0].signal: \"container_bogus\" is not a container signal "
        "(see docs/TRIGGERS.md, \"Container rules\")");
  CHECK(only_error(rule_with("container_memory_fill{node=\"a\"}")) ==
        "flightrec.yaml:3: triggers[0].signal: container signals have no label \"node\" "
        "(allowed: id, name, namespace, pod, container, image)");
  // A bad regex names the rule and the matcher, wherever the rule writes its name.
  CHECK(only_error(rule_with("container_memory_fill{namespace=\"prod\",pod=~\"web-(\"}")) ==
        "flightrec.yaml:3: triggers[0].signal: rule \"hot\": label matcher pod=~\"web-(\" is not a "
        "valid regex (missing ): web-()");
  CHECK(only_error("triggers:\n"
                   "  - signal: 'container_memory_fill{pod!~\"[z-a]\"}'\n"
                   "    name: late-name\n"
                   "    op: '>'\n"
                   "    value: 0.5\n") ==
        "flightrec.yaml:2: triggers[0].signal: rule \"late-name\": label matcher pod!~\"[z-a]\" is "
        "not a valid regex (invalid character class range: z-a)");
  CHECK(rules_of(rule_with("container_memory_fill{namespace!=\"kube-system\",pod=~\"web-.+\"}"))
            .size() == 1);
  // A system rule's labels take = only.
  CHECK(only_error(rule_with("cpu_busy_ratio{cpu!=\"total\"}")) ==
        "flightrec.yaml:3: triggers[0].signal: label matcher cpu!=\"total\": only container "
        "signals (container_*) take !=, =~ and !~; others match labels with =");
  // Every signal of the table loads.
  for (const auto& row : kContainerSignals) {
    CHECK(rules_of(rule_with(std::string(row.name) + "{id=\"/a\"}")).size() == 1);
  }
}
