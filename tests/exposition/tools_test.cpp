// The external tools that judge our output: promtool (Prometheus 2.42's parsers and linter) and
// gzip(1). Each test is skipped, with a message, when its tool is not installed.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "flightrec/common/gzip.h"
#include "flightrec/exposition/serialize.h"
#include "temp_dir.h"

using namespace flightrec::exposition;
using flightrec::testing::TempDir;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

namespace {

struct CommandResult {
  int exit_status = -1;
  std::string output;  // stdout and stderr
};

CommandResult run(const std::string& command) {
  CommandResult result;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) {
    result.output.append(buffer, n);
  }
  const int status = ::pclose(pipe);
  result.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

bool installed(const std::string& tool) { return run("command -v " + tool).exit_status == 0; }

// What flightrec exposes, in miniature: a labelled counter with created times, a gauge with a
// unit and awkward HELP, a histogram, a summary.
std::vector<MetricFamily> realistic_families() {
  std::vector<MetricFamily> families;

  MetricFamily reads{
      "flightrec_source_reads_total", "Reads of each /proc source.", MetricType::Counter, {}};
  for (const auto* source : {"stat", "meminfo", "net/dev"}) {
    ClientMetric metric;
    metric.label = {{"source", source}, {"result", "ok"}};
    metric.counter.value = 123456;
    reads.metric.push_back(metric);
  }
  families.push_back(reads);

  ClientMetric ring;
  ring.gauge.value = 67108864;
  families.push_back({"flightrec_ring_bytes",
                      "Bytes held by the ring of compressed chunks (\\ and \"quotes\" kept).",
                      MetricType::Gauge,
                      {ring}});

  ClientMetric lateness;
  lateness.label = {{"tier", "fast"}};
  lateness.histogram.bucket = {{50, 0.0001}, {900, 0.001}, {990, 0.01}, {1000, 0.1}};
  lateness.histogram.sample_count = 1001;
  lateness.histogram.sample_sum = 0.087;
  families.push_back({"flightrec_tick_lateness_seconds",
                      "How late each sampler tick started.",
                      MetricType::Histogram,
                      {lateness}});

  ClientMetric scrape;
  scrape.summary.quantile = {{0.5, 0.002}, {0.99, 0.011}};
  scrape.summary.sample_count = 40;
  scrape.summary.sample_sum = 0.1;
  families.push_back({"flightrec_scrape_duration_seconds",
                      "Time spent serving /metrics.",
                      MetricType::Summary,
                      {scrape}});
  return families;
}

ExtrasByFamily realistic_extras() {
  ExtrasByFamily extras{
      {"flightrec_source_reads_total", {.created_seconds = {1.7e9, 1.7e9, 1700000000.25}}},
      {"flightrec_ring_bytes", {"bytes"}},
      {"flightrec_tick_lateness_seconds", {"seconds", {1700000000}}},
      {"flightrec_scrape_duration_seconds", {"seconds", {1700000000}}}};
  extras["flightrec_source_reads_total"].exemplars.emplace(
      1, Exemplar{.labels = {{"incident_id", "20231114T221320.250Z-cpu_busy"}},
                  .value = 1,
                  .timestamp_seconds = 1700000000.25});
  return extras;
}

// realistic_families() with a process in the top-N that named itself with a byte that is not UTF-8
// and an escape sequence (prctl PR_SET_NAME allows any bytes), and HELP that is not UTF-8 either.
std::vector<MetricFamily> hostile_families() {
  auto families = realistic_families();
  ClientMetric process;
  process.label = {{"pid", "4242"}, {"comm", std::string("ux\xff") + "bad\x1b[1m"}};
  process.gauge.value = 0.97;
  families.push_back({"flightrec_top_process_cpu_ratio",
                      "CPU of the top processes \xc3.",
                      MetricType::Gauge,
                      {process}});
  return families;
}

// promtool's OpenMetrics backfill runs Prometheus's own OpenMetrics parser, the one its scraper
// uses, but insists on timestamps: give every sample line one (before its exemplar, if any), and
// nothing else changes.
std::string with_timestamps(const std::string& openmetrics) {
  std::istringstream in(openmetrics);
  std::string stamped;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind('#', 0) != 0) {
      const auto exemplar = line.find(" # {");
      line.insert(exemplar == std::string::npos ? line.size() : exemplar, " 1700000100");
    }
    stamped += line;
    stamped += '\n';
  }
  return stamped;
}

}  // namespace

TEST_CASE("promtool check metrics finds nothing to say about our text 0.0.4",
          "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  const auto result = serialize(Format::text_0_0_4, realistic_families(), realistic_extras());
  REQUIRE(result.warnings.empty());
  dir.write("metrics.txt", result.body);
  const auto check = run("promtool check metrics < " + dir.file("metrics.txt").string());
  INFO(result.body);
  CHECK(check.output.empty());
  CHECK(check.exit_status == 0);
}

TEST_CASE("promtool check metrics accepts our text 0.0.4 of a process named with invalid UTF-8",
          "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  const auto result = serialize(Format::text_0_0_4, hostile_families(), realistic_extras());
  dir.write("metrics.txt", result.body);
  const auto check = run("promtool check metrics < " + dir.file("metrics.txt").string());
  INFO(check.output);
  CHECK(check.exit_status == 0);
}

TEST_CASE("promtool check metrics flags a bad exposition, so the check above can fail",
          "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  dir.write("bad.txt", "# TYPE flightrec_things counter\nflightrec_things 1\n");
  const auto check = run("promtool check metrics < " + dir.file("bad.txt").string());
  CHECK(check.exit_status != 0);
  CHECK_FALSE(check.output.empty());
}

TEST_CASE("Prometheus's OpenMetrics parser (promtool backfill) accepts our OpenMetrics",
          "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  const auto result =
      serialize(Format::openmetrics_1_0_0, realistic_families(), realistic_extras());
  REQUIRE(result.warnings.empty());
  dir.write("metrics.om", with_timestamps(result.body));
  const auto backfill = run("promtool tsdb create-blocks-from openmetrics " +
                            dir.file("metrics.om").string() + " " + dir.file("blocks").string());
  INFO(result.body);
  INFO(backfill.output);
  CHECK(backfill.exit_status == 0);
}

TEST_CASE(
    "Prometheus's OpenMetrics parser accepts our OpenMetrics of a process named with "
    "invalid UTF-8",
    "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  const auto result = serialize(Format::openmetrics_1_0_0, hostile_families(), realistic_extras());
  dir.write("metrics.om", with_timestamps(result.body));
  const auto backfill = run("promtool tsdb create-blocks-from openmetrics " +
                            dir.file("metrics.om").string() + " " + dir.file("blocks").string());
  INFO(backfill.output);
  CHECK(backfill.exit_status == 0);
}

TEST_CASE("Prometheus's OpenMetrics parser rejects an exposition without # EOF",
          "[exposition][tools]") {
  if (!installed("promtool")) {
    WARN("promtool is not installed (Debian package 'prometheus'); skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  auto body = serialize(Format::openmetrics_1_0_0, realistic_families()).body;
  body.erase(body.rfind("# EOF"));
  dir.write("metrics.om", with_timestamps(body));
  const auto backfill = run("promtool tsdb create-blocks-from openmetrics " +
                            dir.file("metrics.om").string() + " " + dir.file("blocks").string());
  CHECK(backfill.exit_status != 0);
}

TEST_CASE("gzip -d restores what gzip compressed", "[exposition][tools]") {
  if (!installed("gzip")) {
    WARN("gzip(1) is not installed; skipping");
    return;
  }
  const TempDir dir("flightrec-exposition");
  REQUIRE(std::filesystem::is_directory(dir.path()));
  const auto plain = serialize(Format::openmetrics_1_0_0, realistic_families()).body;
  dir.write("metrics.gz", flightrec::gzip(plain));
  const auto decompressed = run("gzip -dc " + dir.file("metrics.gz").string());
  CHECK(decompressed.exit_status == 0);
  CHECK(decompressed.output == plain);
}
