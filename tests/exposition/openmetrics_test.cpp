#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "flightrec/exposition/serialize.h"

using namespace flightrec::exposition;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

MetricFamily gauge(std::string name, double value, std::vector<ClientMetric::Label> labels = {}) {
  ClientMetric metric;
  metric.label = std::move(labels);
  metric.gauge.value = value;
  return {std::move(name), "A gauge.", MetricType::Gauge, {metric}};
}

MetricFamily counter(std::string name, double value) {
  ClientMetric metric;
  metric.counter.value = value;
  return {std::move(name), "A counter.", MetricType::Counter, {metric}};
}

MetricFamily histogram(std::string name, std::vector<ClientMetric::Bucket> buckets,
                       std::uint64_t count, double sum) {
  ClientMetric metric;
  metric.histogram.bucket = std::move(buckets);
  metric.histogram.sample_count = count;
  metric.histogram.sample_sum = sum;
  return {std::move(name), "A histogram.", MetricType::Histogram, {metric}};
}

std::string openmetrics(const std::vector<MetricFamily>& families,
                        const ExtrasByFamily& extras = {}) {
  const auto result = serialize(Format::openmetrics_1_0_0, families, extras);
  CHECK(result.warnings.empty());
  return result.body;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The line in `text` that starts with `prefix`, or "" when there is none.
std::string line_starting(const std::string& text, const std::string& prefix) {
  for (const auto& line : lines_of(text)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("OpenMetrics escapes backslash, quote and newline in label values",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({gauge("g", 1, {{"path", "C:\\dir \"x\"\nnext"}})});
  CHECK(line_starting(text, "g{") == R"(g{path="C:\\dir \"x\"\nnext"} 1)");
}

TEST_CASE("OpenMetrics escapes backslash, quote and newline in HELP", "[exposition][openmetrics]") {
  auto family = gauge("g", 1);
  family.help = "a \\ b \"c\"\nd";
  CHECK(line_starting(openmetrics({family}), "# HELP") == R"(# HELP g a \\ b \"c\"\nd)");
}

// A process can name itself with any bytes (prctl PR_SET_NAME): one that is not UTF-8 must not make
// Prometheus refuse the scrape. Each invalid byte becomes U+FFFD; ESC is valid UTF-8 and stays.
TEST_CASE("OpenMetrics writes label values, HELP and exemplar labels as valid UTF-8",
          "[exposition][openmetrics]") {
  const std::string fffd = "\xef\xbf\xbd";  // U+FFFD
  auto family = counter("flightrec_incidents_total", 1);
  family.help = "help \xc3(";
  family.metric.front().label = {{"comm", std::string("ux\xff") + "bad\x1b[1m"},
                                 {"cut", "caf\xc3"}};
  ExtrasByFamily extras{{"flightrec_incidents_total", {}}};
  extras["flightrec_incidents_total"].exemplars.emplace(
      0, Exemplar{.labels = {{"incident_id", "\xed\xa0\x80"}}, .value = 1, .timestamp_seconds = 1});
  const auto body = serialize(Format::openmetrics_1_0_0, {family}, extras).body;
  CHECK(line_starting(body, "# HELP") == "# HELP flightrec_incidents help " + fffd + "(");
  CHECK(line_starting(body, "flightrec_incidents_total") ==
        "flightrec_incidents_total{comm=\"ux" + fffd + "bad\x1b[1m\",cut=\"caf" + fffd +
            "\"} 1 # {incident_id=\"" + fffd + fffd + fffd + "\"} 1 1");
}

TEST_CASE("OpenMetrics leaves valid UTF-8 in label values as it is", "[exposition][openmetrics]") {
  const auto text = openmetrics({gauge("g", 1, {{"comm", "caf\xc3\xa9 \xe2\x82\xac\t"}})});
  CHECK(line_starting(text, "g{") == "g{comm=\"caf\xc3\xa9 \xe2\x82\xac\t\"} 1");
}

TEST_CASE("OpenMetrics leaves out an empty HELP", "[exposition][openmetrics]") {
  auto family = gauge("g", 1);
  family.help.clear();
  CHECK(line_starting(openmetrics({family}), "# HELP").empty());
}

TEST_CASE("OpenMetrics writes NaN, +Inf and -Inf", "[exposition][openmetrics]") {
  const auto text = openmetrics({gauge("a", std::nan("")), gauge("b", kInf), gauge("c", -kInf)});
  CHECK(line_starting(text, "a ") == "a NaN");
  CHECK(line_starting(text, "b ") == "b +Inf");
  CHECK(line_starting(text, "c ") == "c -Inf");
}

TEST_CASE("OpenMetrics writes whole values as integers and others in shortest round-trip form",
          "[exposition][openmetrics]") {
  const auto text =
      openmetrics({gauge("a", 1000000), gauge("b", 0.1 + 0.2), gauge("c", -1.5e-7),
                   gauge("d", 1234567890123.0), gauge("e", 1e300), gauge("f", 1700000000.25)});
  CHECK(line_starting(text, "a ") == "a 1000000");
  CHECK(line_starting(text, "b ") == "b 0.30000000000000004");
  CHECK(line_starting(text, "c ") == "c -1.5e-07");
  CHECK(line_starting(text, "d ") == "d 1234567890123");
  CHECK(line_starting(text, "e ") == "e 1e+300");
  CHECK(line_starting(text, "f ") == "f 1700000000.25");
}

TEST_CASE("OpenMetrics names a counter family without _total and its samples with it",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({counter("flightrec_ticks_total", 42)});
  CHECK(lines_of(text) == std::vector<std::string>{"# TYPE flightrec_ticks counter",
                                                   "# HELP flightrec_ticks A counter.",
                                                   "flightrec_ticks_total 42", "# EOF"});
}

TEST_CASE("OpenMetrics adds _total to the samples of a counter named without it",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({counter("flightrec_ticks", 3)});
  CHECK(line_starting(text, "# TYPE") == "# TYPE flightrec_ticks counter");
  CHECK(line_starting(text, "flightrec_ticks") == "flightrec_ticks_total 3");
}

TEST_CASE("OpenMetrics writes _created after each series when created times are given",
          "[exposition][openmetrics]") {
  auto family = counter("flightrec_reads_total", 7);
  family.metric.push_back(family.metric.front());
  family.metric[0].label = {{"source", "stat"}};
  family.metric[1].label = {{"source", "meminfo"}};
  family.metric[1].counter.value = 9;
  const ExtrasByFamily extras{
      {"flightrec_reads_total", {.created_seconds = {1700000000.5, 1700000001}}}};
  const auto lines = lines_of(openmetrics({family}, extras));
  CHECK(std::vector<std::string>(lines.begin() + 2, lines.end()) ==
        std::vector<std::string>{R"(flightrec_reads_total{source="stat"} 7)",
                                 R"(flightrec_reads_created{source="stat"} 1700000000.5)",
                                 R"(flightrec_reads_total{source="meminfo"} 9)",
                                 R"(flightrec_reads_created{source="meminfo"} 1700000001)",
                                 "# EOF"});
}

TEST_CASE("OpenMetrics leaves out created times that do not match the series, with a warning",
          "[exposition][openmetrics]") {
  const ExtrasByFamily extras{{"c_total", {.created_seconds = {1, 2}}}};
  const auto result = serialize(Format::openmetrics_1_0_0, {counter("c_total", 1)}, extras);
  CHECK(result.body.find("_created") == std::string::npos);
  REQUIRE(result.warnings.size() == 1);
  CHECK(result.warnings.front().find("'c_total'") != std::string::npos);
}

TEST_CASE("OpenMetrics writes a counter's exemplar after its _total value, with its timestamp",
          "[exposition][openmetrics]") {
  auto family = counter("flightrec_incidents_total", 2);
  family.metric.push_back(family.metric.front());
  family.metric[0].label = {{"status", "written"}};
  family.metric[1].label = {{"status", "failed"}};
  ExtrasByFamily extras{{"flightrec_incidents_total", {}}};
  extras["flightrec_incidents_total"].exemplars.emplace(
      0, Exemplar{.labels = {{"incident_id", "20261202T031500.250Z-cpu"}},
                  .value = 1,
                  .timestamp_seconds = 1795929300.25});
  const auto result = serialize(Format::openmetrics_1_0_0, {family}, extras);
  CHECK(result.warnings.empty());
  CHECK(
      lines_of(result.body) ==
      std::vector<std::string>{
          "# TYPE flightrec_incidents counter", "# HELP flightrec_incidents A counter.",
          R"(flightrec_incidents_total{status="written"} 2 # {incident_id="20261202T031500.250Z-cpu"} 1 1795929300.25)",
          R"(flightrec_incidents_total{status="failed"} 2)", "# EOF"});
}

TEST_CASE("OpenMetrics leaves out exemplars it may not write, each with a warning",
          "[exposition][openmetrics]") {
  const Exemplar fits{.labels = {{"id", "x"}}, .value = 1, .timestamp_seconds = 1};
  // 2 + 127 characters: one over the spec's 128, counted in characters ("é" is two bytes).
  const Exemplar too_long{.labels = {{"id", "é" + std::string(126, 'x')}}, .value = 1};
  ExtrasByFamily extras;
  extras["g"].exemplars.emplace(0, fits);
  extras["c_total"].exemplars.emplace(0, too_long);
  extras["c_total"].exemplars.emplace(5, fits);
  const auto result =
      serialize(Format::openmetrics_1_0_0, {gauge("g", 1), counter("c_total", 1)}, extras);
  CHECK(result.body.find(" # {") == std::string::npos);
  CHECK(result.warnings ==
        std::vector<std::string>{"family 'g': exemplar left out: a gauge cannot carry one",
                                 "family 'c_total': exemplar left out: its labels have 129 "
                                 "characters, at most 128",
                                 "family 'c_total': exemplar left out: series 5 of 1"});
  // Exactly 128 characters is allowed.
  extras["c_total"].exemplars = {
      {0, Exemplar{.labels = {{"id", "é" + std::string(125, 'x')}}, .value = 1}}};
  extras.erase("g");
  CHECK(serialize(Format::openmetrics_1_0_0, {counter("c_total", 1)}, extras).warnings.empty());
}

TEST_CASE("OpenMetrics writes histogram buckets in order with canonical le, then count and sum",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({histogram("flightrec_tick_lateness_seconds",
                                           {{1, 0.0001}, {4, 0.001}, {6, 1}, {7, 1e6}}, 8, 2.5)});
  CHECK(lines_of(text) ==
        std::vector<std::string>{"# TYPE flightrec_tick_lateness_seconds histogram",
                                 "# HELP flightrec_tick_lateness_seconds A histogram.",
                                 R"(flightrec_tick_lateness_seconds_bucket{le="0.0001"} 1)",
                                 R"(flightrec_tick_lateness_seconds_bucket{le="0.001"} 4)",
                                 R"(flightrec_tick_lateness_seconds_bucket{le="1.0"} 6)",
                                 R"(flightrec_tick_lateness_seconds_bucket{le="1e+06"} 7)",
                                 R"(flightrec_tick_lateness_seconds_bucket{le="+Inf"} 8)",
                                 "flightrec_tick_lateness_seconds_count 8",
                                 "flightrec_tick_lateness_seconds_sum 2.5", "# EOF"});
}

TEST_CASE("OpenMetrics writes a given +Inf bucket once and puts le after the series labels",
          "[exposition][openmetrics]") {
  auto family = histogram("h_seconds", {{2, 0.5}, {3, kInf}}, 3, 1);
  family.metric.front().label = {{"cpu", "0"}};
  const auto lines = lines_of(openmetrics({family}));
  CHECK(std::vector<std::string>(lines.begin() + 2, lines.begin() + 4) ==
        std::vector<std::string>{R"(h_seconds_bucket{cpu="0",le="0.5"} 2)",
                                 R"(h_seconds_bucket{cpu="0",le="+Inf"} 3)"});
  CHECK(lines[4] == R"(h_seconds_count{cpu="0"} 3)");
}

TEST_CASE("OpenMetrics renders le values canonically as in the specification's examples",
          "[exposition][openmetrics]") {
  // From the spec: "0.0 0.001 0.002 0.01 0.1 0.9 0.95 0.99 0.999 1.0 1.7 10.0" and
  // "1e-10 1e-09 1e-05 0.0001 0.1 1.0 100000.0 1e+06 1e+10".
  const std::vector<std::pair<double, std::string>> expected{
      {0.0, "0.0"},      {0.001, "0.001"}, {0.002, "0.002"}, {0.01, "0.01"},  {0.9, "0.9"},
      {0.95, "0.95"},    {0.99, "0.99"},   {0.999, "0.999"}, {1.0, "1.0"},    {1.7, "1.7"},
      {10.0, "10.0"},    {1e-10, "1e-10"}, {1e-9, "1e-09"},  {1e-5, "1e-05"}, {1e-4, "0.0001"},
      {1e5, "100000.0"}, {1e6, "1e+06"},   {1e10, "1e+10"}};
  for (const auto& [bound, rendered] : expected) {
    const auto text = openmetrics({histogram("h", {{0, bound}}, 0, 0)});
    CHECK(line_starting(text, "h_bucket") == "h_bucket{le=\"" + rendered + "\"} 0");
  }
}

TEST_CASE("OpenMetrics writes summaries with canonical quantile labels",
          "[exposition][openmetrics]") {
  ClientMetric metric;
  metric.summary.quantile = {{0.5, 0.25}, {0.99, 1}};
  metric.summary.sample_count = 10;
  metric.summary.sample_sum = 3.5;
  const auto text = openmetrics({{"s_seconds", "A summary.", MetricType::Summary, {metric}}});
  CHECK(lines_of(text) ==
        std::vector<std::string>{"# TYPE s_seconds summary", "# HELP s_seconds A summary.",
                                 R"(s_seconds{quantile="0.5"} 0.25)",
                                 R"(s_seconds{quantile="0.99"} 1)", "s_seconds_count 10",
                                 "s_seconds_sum 3.5", "# EOF"});
}

TEST_CASE("OpenMetrics types an untyped family as unknown", "[exposition][openmetrics]") {
  ClientMetric metric;
  metric.untyped.value = 5;
  const auto text = openmetrics({{"u", "", MetricType::Untyped, {metric}}});
  CHECK(lines_of(text) == std::vector<std::string>{"# TYPE u unknown", "u 5", "# EOF"});
}

TEST_CASE("OpenMetrics writes UNIT between TYPE and HELP when the name ends in the unit",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({counter("flightrec_cpu_seconds_total", 1)},
                                {{"flightrec_cpu_seconds_total", {"seconds"}}});
  const auto lines = lines_of(text);
  REQUIRE(lines.size() >= 3);
  CHECK(lines[0] == "# TYPE flightrec_cpu_seconds counter");
  CHECK(lines[1] == "# UNIT flightrec_cpu_seconds seconds");
  CHECK(lines[2].rfind("# HELP flightrec_cpu_seconds ", 0) == 0);
}

TEST_CASE("OpenMetrics leaves out a unit that is not a suffix of the name, with a warning",
          "[exposition][openmetrics]") {
  const ExtrasByFamily extras{{"flightrec_load", {"seconds"}}, {"xbytes", {"bytes"}}};
  const auto result = serialize(Format::openmetrics_1_0_0,
                                {gauge("flightrec_load", 1), gauge("xbytes", 2)}, extras);
  CHECK(result.body.find("# UNIT") == std::string::npos);
  CHECK(result.warnings.size() == 2);
}

TEST_CASE("OpenMetrics keeps the families in the given order and ends with # EOF",
          "[exposition][openmetrics]") {
  const auto text = openmetrics({gauge("zeta", 1), counter("alpha_total", 2), gauge("mid", 3)});
  std::vector<std::string> types;
  for (const auto& line : lines_of(text)) {
    if (line.rfind("# TYPE ", 0) == 0) types.push_back(line.substr(7, line.find(' ', 7) - 7));
  }
  CHECK(types == std::vector<std::string>{"zeta", "alpha", "mid"});
  REQUIRE(text.size() >= 6);
  CHECK(text.substr(text.size() - 6) == "# EOF\n");
  CHECK(text.find("# EOF") == text.size() - 6);
}

TEST_CASE("OpenMetrics of no families is just # EOF", "[exposition][openmetrics]") {
  CHECK(openmetrics({}) == "# EOF\n");
}

TEST_CASE("OpenMetrics drops a later family with a name already written, with a warning",
          "[exposition][openmetrics]") {
  // Counter "x_total" is OpenMetrics family "x", so gauge "x" repeats it.
  const auto result = serialize(Format::openmetrics_1_0_0, {counter("x_total", 1), gauge("x", 2),
                                                            gauge("y", 3), gauge("y", 4)});
  CHECK(lines_of(result.body) == std::vector<std::string>{"# TYPE x counter", "# HELP x A counter.",
                                                          "x_total 1", "# TYPE y gauge",
                                                          "# HELP y A gauge.", "y 3", "# EOF"});
  REQUIRE(result.warnings.size() == 2);
  CHECK(result.warnings[0].find("'x'") != std::string::npos);
  CHECK(result.warnings[1].find("'y'") != std::string::npos);
}

TEST_CASE("serialize_into replaces the body it is given", "[exposition][openmetrics]") {
  std::string body = "left over from the last scrape";
  const auto warnings = serialize_into(Format::openmetrics_1_0_0, {gauge("g", 1)}, {}, body);
  CHECK(warnings.empty());
  CHECK(body.rfind("# TYPE g gauge\n", 0) == 0);
}
