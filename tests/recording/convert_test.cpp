#include "flightrec/recording/convert.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

std::string convert(DumpFormat format, store::TimeRange range = {}) {
  std::string out;
  const auto meta = known_metadata();
  TextConverter converter(format, meta, range, [&out](std::string_view bytes) {
    out += bytes;
    return true;
  });
  for (const auto& block : known_blocks()) converter.add(block);
  converter.finish();
  return out;
}

const std::string kKnownJson =
    "{\"schema_version\":1,\"host\":\"box\",\"flightrec_version\":\"0.1.0\","
    "\"resolution_seconds\":0.001,\n"
    "\"metadata\":{\"rule\":\"load > 5\"},\n"
    "\"series\":[\n"
    "{\"name\":\"cpu_seconds_total\",\"labels\":{\"cpu\":\"0\"},\"unit\":\"seconds\","
    "\"kind\":\"counter\",\"source\":\"/proc/stat\"},\n"
    "{\"name\":\"load\",\"labels\":{},\"unit\":\"\",\"kind\":\"gauge\","
    "\"source\":\"/proc/loadavg\"}],\n"
    "\"columns\":[\"time\",\"cpu_seconds_total{cpu=\\\"0\\\"}\",\"load\"],\n"
    "\"rows\":[\n"
    "[1700000000.000000,123.45,7],\n"
    "[1700000000.001000,123.46,null],\n"
    "[1700000000.002000,123.5,-3]\n"
    "]}\n";

const std::string kKnownCsv =
    "time,\"cpu_seconds_total{cpu=\"\"0\"\"}\",load\r\n"
    "1700000000.000000,123.45,7\r\n"
    "1700000000.001000,123.46,\r\n"
    "1700000000.002000,123.5,-3\r\n";

std::filesystem::path temp_file(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("flightrec_convert_test_" + name);
}

}  // namespace

TEST_CASE("JSON output of a known recording: scaled values, null for absent", "[convert]") {
  CHECK(convert(DumpFormat::json) == kKnownJson);
}

TEST_CASE("CSV output of a known recording: quoted header, empty cell for absent", "[convert]") {
  CHECK(convert(DumpFormat::csv) == kKnownCsv);
}

TEST_CASE("Converters keep only frames inside the time range", "[convert]") {
  const auto middle = kKnownStartNs + 1'000'000;
  CHECK(convert(DumpFormat::csv, {.from_real_ns = middle, .to_real_ns = middle}) ==
        "time,\"cpu_seconds_total{cpu=\"\"0\"\"}\",load\r\n1700000000.001000,123.46,\r\n");
  const auto json = convert(DumpFormat::json, {.from_real_ns = 0, .to_real_ns = 1});
  CHECK_THAT(json, Catch::Matchers::EndsWith("\"rows\":[\n]}\n"));
}

TEST_CASE("Unix seconds keep microseconds and round toward the past", "[convert]") {
  CHECK(format_unix_seconds(1'764'478'800'250'000'000) == "1764478800.250000");
  CHECK(format_unix_seconds(1'999'999) == "0.001999");
  CHECK(format_unix_seconds(-1) == "-1.999999");
}

TEST_CASE("dump_file converts a recording file and refuses a damaged one", "[convert]") {
  const auto path = temp_file("known.fltrec");
  REQUIRE(write_recording_atomically(path, known_metadata(), known_blocks()).ok());
  std::ostringstream out, err;
  CHECK(dump_file(path, "csv", out, err) == 0);
  CHECK(out.str() == kKnownCsv);
  CHECK(err.str().empty());

  std::ostringstream json;
  CHECK(dump_file(path, "json", json, err) == 0);
  CHECK(json.str() == kKnownJson);

  SECTION("a torn file gives an error naming it and no output") {
    const auto bytes = to_bytes(known_metadata(), known_blocks(), false);
    std::ofstream(path, std::ios::binary) << bytes;
    std::ostringstream torn_out, torn_err;
    CHECK(dump_file(path, "json", torn_out, torn_err) == 1);
    CHECK(torn_out.str().empty());
    CHECK_THAT(torn_err.str(), Catch::Matchers::StartsWith(path.string() + ": torn"));
  }
  SECTION("an unknown format is refused") {
    std::ostringstream bad_out, bad_err;
    CHECK(dump_file(path, "xml", bad_out, bad_err) == 1);
    CHECK_THAT(bad_err.str(), Catch::Matchers::Contains("--format xml"));
  }
  std::filesystem::remove(path);
}
