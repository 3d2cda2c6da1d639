#include "flightrec/recording/convert.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "flightrec/common/utf8.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

std::string convert(DumpFormat format, store::TimeRange range = {},
                    const ProcessBlockList& process_blocks = {}) {
  std::string out;
  const auto meta = known_metadata();
  TextConverter converter(format, meta, range, [&out](std::string_view bytes) {
    out += bytes;
    return true;
  });
  for (const auto& block : known_blocks()) converter.add(block);
  for (const auto& block : process_blocks) converter.add_process_block(*block);
  converter.finish();
  return out;
}

const std::string kProcessHeader =
    "],\n\"process_columns\":[\"pid\",\"ppid\",\"pgrp\",\"session\",\"tty_nr\",\"uid\","
    "\"state\",\"kernel_thread\",\"exited\",\"comm\",\"cmdline\",\"cgroup\",\"container_id\","
    "\"container_name\",\"start_time\",\"cpu_user_seconds\",\"cpu_system_seconds\",\"rss_bytes\","
    "\"vsz_bytes\","
    "\"threads\",\"minor_faults\",\"major_faults\",\"io_read_bytes\",\"io_write_bytes\","
    "\"net_tx_bytes\",\"net_rx_bytes\",\"net_tx_packets\",\"net_rx_packets\",\"net_device\"],\n"
    "\"socket_columns\":[\"protocol\",\"family\",\"state\",\"listening\",\"local\",\"remote\","
    "\"inode\",\"pid\",\"uid\",\"tx_bytes\",\"rx_bytes\"],\n"
    "\"processes\":[";

const std::string kContainerHeader =
    "],\n\"container_fast_read_columns\":[\"time\",\"row\",\"usage_us\",\"periods\","
    "\"throttled_periods\",\"throttled_us\",\"memory_usage_bytes\"],\n"
    "\"container_episode_columns\":[\"cgroup_id\",\"start\",\"end\",\"period_seconds\","
    "\"quota_seconds\",\"period_end\",\"throttled_seconds\",\"cpus\",\"spans\",\"refills\","
    "\"end_exact\"],\n"
    "\"containers\":[";

// What follows the last process frame: the container frames' header, no frames, the end.
const std::string kTail = "\n" + kContainerHeader + "\n]}\n";

const std::string kKnownProcessesJson =
    "\n{\"time\":1700000000.000000,\"processes_dropped\":0,"
    "\"unattributed\":{\"tx_bytes\":10,\"rx_bytes\":20,\"tx_packets\":1,\"rx_packets\":2},\n"
    "\"processes\":[\n"
    "[1,0,0,0,0,1000,\"S\",false,false,\"bash\",\"bash -c \\\"x\\\"\",\"/user.slice\",\"\",\"\","
    "1699999997.500000,0.12,0.01,4096,8192,1,7,0,100,0,500,600,5,6,\"lo\"],\n"
    "[42,2,0,0,0,0,\"I\",true,false,\"kworker/0:1\",\"\",\"\",\"\",\"\","
    "1699999999.000000,0,0,0,0,0,0,0,"
    "null,null,null,null,null,null,\"\"]],\n"
    "\"sockets\":[\n"
    "[\"tcp\",2,1,false,\"127.0.0.1:9717\",\"127.0.0.1:50000\",77,1,1000,500,600]]},\n"
    "{\"time\":1700000000.001000,\"processes_dropped\":3,\"unattributed\":null,\n"
    "\"processes\":[\n"
    "[1,0,0,0,0,1000,\"S\",false,false,\"bash\",\"bash -c \\\"x\\\"\",\"/user.slice\",\"\",\"\","
    "1699999997.500000,0.13,0.01,4096,8192,1,7,0,100,0,500,600,5,6,\"lo\"],\n"
    "[42,2,0,0,0,0,\"x\",true,true,\"kworker/0:1\",\"\",\"\",\"\",\"\","
    "1699999999.000000,0,0,0,0,0,0,0,"
    "null,null,null,null,null,null,\"\"]],\n"
    "\"sockets\":[\n"
    "[\"udp\",2,1,false,\"127.0.0.1:9717\",\"127.0.0.1:50000\",77,1,1000,null,null]]}";

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
    "[1700000000.002000,123.5,-3]\n" +
    kProcessHeader + kTail;

const std::string kKnownCsv =
    "time,\"cpu_seconds_total{cpu=\"\"0\"\"}\",load\r\n"
    "1700000000.000000,123.45,7\r\n"
    "1700000000.001000,123.46,\r\n"
    "1700000000.002000,123.5,-3\r\n";

}  // namespace

TEST_CASE("JSON output of a known recording: scaled values, null for absent", "[convert]") {
  CHECK(convert(DumpFormat::json) == kKnownJson);
}

TEST_CASE("CSV output of a known recording: quoted header, empty cell for absent", "[convert]") {
  CHECK(convert(DumpFormat::csv) == kKnownCsv);
}

TEST_CASE("CSV writes hostile device names as printable UTF-8, quoted where RFC 4180 asks",
          "[convert]") {
  auto meta = known_metadata();
  // The kernel lets an interface's name hold escape sequences, commas and bytes that are not
  // UTF-8; a recording from elsewhere may hold anything, line breaks included.
  meta.series[0].labels = {{"device", "eth\x1b[1m\xff,x"}};
  meta.series[1].labels = {{"device", "sd\r\na\xc2\x85\xc3\xa9"}};
  std::string out;
  TextConverter converter(DumpFormat::csv, meta, {}, [&out](std::string_view bytes) {
    out += bytes;
    return true;
  });
  for (const auto& block : known_blocks()) converter.add(block);
  converter.finish();
  const std::string header = out.substr(0, out.find("\r\n") + 2);
  CHECK(header ==
        "time,\"cpu_seconds_total{device=\"\"eth\\x1b[1m\xef\xbf\xbd,x\"\"}\","
        "\"load{device=\"\"sd\\x0d\\x0aa\\xc2\\x85\xc3\xa9\"\"}\"\r\n");
  CHECK(flightrec::is_valid_utf8(out));
  CHECK(out.substr(header.size()).starts_with("1700000000.000000,123.45,7\r\n"));
}

TEST_CASE("Converters keep only frames inside the time range", "[convert]") {
  const auto middle = kKnownStartNs + 1'000'000;
  CHECK(convert(DumpFormat::csv, {.from_real_ns = middle, .to_real_ns = middle}) ==
        "time,\"cpu_seconds_total{cpu=\"\"0\"\"}\",load\r\n1700000000.001000,123.46,\r\n");
  const auto json =
      convert(DumpFormat::json, {.from_real_ns = 0, .to_real_ns = 1}, known_process_blocks());
  CHECK_THAT(json, Catch::Matchers::Contains("\"rows\":[\n" + kProcessHeader + kTail));
  const auto second_frame = convert(
      DumpFormat::json, {.from_real_ns = middle, .to_real_ns = middle}, known_process_blocks());
  CHECK_THAT(second_frame,
             Catch::Matchers::Contains("\"processes\":[\n{\"time\":1700000000.001000"));
  CHECK_THAT(second_frame, !Catch::Matchers::Contains("1700000000.000000"));
}

TEST_CASE("JSON output lists the process frames after the rows", "[convert]") {
  const auto json = convert(DumpFormat::json, {}, known_process_blocks());
  CHECK(json ==
        kKnownJson.substr(0, kKnownJson.size() - kTail.size()) + kKnownProcessesJson + kTail);
}

TEST_CASE("CSV output holds the system series only", "[convert]") {
  CHECK(convert(DumpFormat::csv, {}, known_process_blocks()) == kKnownCsv);
}

TEST_CASE("TextConverter refuses system blocks after process blocks", "[convert]") {
  const auto meta = known_metadata();
  TextConverter converter(DumpFormat::json, meta, {}, [](std::string_view) { return true; });
  converter.add_process_block(*known_process_blocks()[0]);
  CHECK_THROWS_AS(converter.add(known_blocks()[0]), std::logic_error);
}

TEST_CASE("Unix seconds keep microseconds and round toward the past", "[convert]") {
  CHECK(format_unix_seconds(1'764'478'800'250'000'000) == "1764478800.250000");
  CHECK(format_unix_seconds(1'999'999) == "0.001999");
  CHECK(format_unix_seconds(-1) == "-1.999999");
}

TEST_CASE("dump_file converts a recording file and refuses a damaged one", "[convert]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("known.fltrec");
  REQUIRE(write_recording_atomically(path, known_metadata(), known_blocks()).ok());
  std::ostringstream out, err;
  CHECK(dump_file(path, "csv", out, err) == 0);
  CHECK(out.str() == kKnownCsv);
  CHECK(err.str().empty());

  std::ostringstream json;
  CHECK(dump_file(path, "json", json, err) == 0);
  CHECK(json.str() == kKnownJson);

  SECTION("a file with process blocks converts them after the rows") {
    REQUIRE(
        write_recording_atomically(path, known_metadata(), known_blocks(), known_process_blocks())
            .ok());
    std::ostringstream with_processes;
    CHECK(dump_file(path, "json", with_processes, err) == 0);
    CHECK(with_processes.str() == convert(DumpFormat::json, {}, known_process_blocks()));
    std::ostringstream csv;
    CHECK(dump_file(path, "csv", csv, err) == 0);
    CHECK(csv.str() == kKnownCsv);
  }
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
    CHECK_THAT(bad_err.str(), Catch::Matchers::Contains("--format \"xml\""));
  }
}

TEST_CASE("each dump format is named and served from its one table", "[convert]") {
  for (const auto& row : kDumpFormatNames) {
    CHECK(parse_dump_format(row.name) == row.value);
  }
  CHECK(parse_dump_format("json") == DumpFormat::json);
  CHECK(parse_dump_format("csv") == DumpFormat::csv);
  CHECK(parse_dump_format("raw") == DumpFormat::raw);
  CHECK_FALSE(parse_dump_format("JSON").has_value());
  CHECK_FALSE(parse_dump_format("").has_value());
  CHECK(content_type(DumpFormat::json) == "application/json");
  CHECK(content_type(DumpFormat::csv) == "text/csv; charset=utf-8; header=present");
  CHECK(content_type(DumpFormat::raw) == "application/octet-stream");
}
