#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "flightrec/exposition/serialize.h"

using namespace flightrec::exposition;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

namespace {

MetricFamily counter(std::string name, std::string help, double value) {
  ClientMetric metric;
  metric.counter.value = value;
  return {std::move(name), std::move(help), MetricType::Counter, {metric}};
}

std::string text(const std::vector<MetricFamily>& families, const ExtrasByFamily& extras = {}) {
  const auto result = serialize(Format::text_0_0_4, families, extras);
  CHECK(result.warnings.empty());
  return result.body;
}

}  // namespace

TEST_CASE("Text escapes backslash and newline in HELP but keeps quotes", "[exposition][text]") {
  const auto body = text({counter("c_total", "a \\ b \"c\"\nd", 1)});
  CHECK(body.find("# HELP c_total a \\\\ b \"c\"\\nd\n") != std::string::npos);
}

TEST_CASE("Text escapes backslash, quote and newline in label values", "[exposition][text]") {
  auto family = counter("c_total", "h", 1);
  family.metric.front().label = {{"path", "C:\\dir \"x\"\nnext"}};
  CHECK(text({family}).find(R"(c_total{path="C:\\dir \"x\"\nnext"} 1)") != std::string::npos);
}

// prometheus-cpp's serializer writes bytes as given: invalid UTF-8 is replaced before it runs.
TEST_CASE("Text writes label values and HELP as valid UTF-8", "[exposition][text]") {
  const std::string fffd = "\xef\xbf\xbd";  // U+FFFD
  auto family = counter("c_total", "help \xc3(", 1);
  family.metric.front().label = {{"comm", std::string("ux\xff") + "bad\x1b[1m"},
                                 {"dev", "\xc0\xaf"}};
  const auto body = text({family});
  CHECK(body.find("# HELP c_total help " + fffd + "(\n") != std::string::npos);
  CHECK(body.find("c_total{comm=\"ux" + fffd + "bad\x1b[1m\",dev=\"" + fffd + fffd + "\"} 1\n") !=
        std::string::npos);
}

TEST_CASE("Text keeps a counter's _total in TYPE, HELP and samples", "[exposition][text]") {
  CHECK(text({counter("flightrec_ticks_total", "Ticks.", 42)}) ==
        "# HELP flightrec_ticks_total Ticks.\n"
        "# TYPE flightrec_ticks_total counter\n"
        "flightrec_ticks_total 42\n");
}

TEST_CASE("Text adds _total to a counter named without it, like OpenMetrics does",
          "[exposition][text]") {
  const auto body = text({counter("flightrec_ticks", "Ticks.", 3)});
  CHECK(body.find("# TYPE flightrec_ticks_total counter\n") != std::string::npos);
  CHECK(body.find("\nflightrec_ticks_total 3\n") != std::string::npos);
}

TEST_CASE("Text has no # EOF, UNIT, _created or exemplars even when extras are given",
          "[exposition][text]") {
  ExtrasByFamily extras{{"c_seconds_total", {"seconds", {1700000000}}}};
  extras["c_seconds_total"].exemplars.emplace(
      0, Exemplar{.labels = {{"incident_id", "x"}}, .value = 1, .timestamp_seconds = 1});
  const auto body = text({counter("c_seconds_total", "h", 1)}, extras);
  CHECK(body.find("# EOF") == std::string::npos);
  CHECK(body.find("# UNIT") == std::string::npos);
  CHECK(body.find("_created") == std::string::npos);
  CHECK(body.find("incident_id") == std::string::npos);
  CHECK(body == "# HELP c_seconds_total h\n# TYPE c_seconds_total counter\nc_seconds_total 1\n");
}

TEST_CASE("Text writes histogram buckets with +Inf", "[exposition][text]") {
  ClientMetric metric;
  metric.histogram.bucket = {{1, 0.5}, {2, 1}};
  metric.histogram.sample_count = 3;
  metric.histogram.sample_sum = 4;
  const auto body = text({{"h_seconds", "h", MetricType::Histogram, {metric}}});
  const auto half = body.find(R"(h_seconds_bucket{le="0.5"} 1)");
  const auto one = body.find(R"(h_seconds_bucket{le="1"} 2)");
  const auto inf = body.find(R"(h_seconds_bucket{le="+Inf"} 3)");
  REQUIRE(half != std::string::npos);
  REQUIRE(one != std::string::npos);
  REQUIRE(inf != std::string::npos);
  CHECK(half < one);
  CHECK(one < inf);
}

TEST_CASE("Text keeps the family order and drops repeated names like OpenMetrics",
          "[exposition][text]") {
  const auto result = serialize(
      Format::text_0_0_4,
      {counter("b_total", "h", 1), counter("a_total", "h", 2), counter("b_total", "h", 3)});
  CHECK(result.body ==
        "# HELP b_total h\n# TYPE b_total counter\nb_total 1\n"
        "# HELP a_total h\n# TYPE a_total counter\na_total 2\n");
  CHECK(result.warnings.size() == 1);
}
