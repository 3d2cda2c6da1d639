// Container frames in JSON (/dump?format=json, flightrec dump): after the process frames, each
// frame with its containers, fast reads and episodes; values as the cgroup files give them.
#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "flightrec/recording/convert.h"
#include "temp_dir.h"
#include "test_recordings.h"

using namespace flightrec;
using namespace flightrec::recording;
using namespace flightrec::recording::testing;

namespace {

// As /dump streams them: the container frames once for the process rows' container names, then
// after the process frames.
std::string convert_with_containers(
    store::TimeRange range = {}, const ProcessBlockList& process_blocks = known_process_blocks()) {
  std::string out;
  const auto meta = known_metadata();
  TextConverter converter(DumpFormat::json, meta, range, [&out](std::string_view bytes) {
    out += bytes;
    return true;
  });
  const auto container_frames = stored_container_frames(known_container_frames());
  for (const auto& block : known_blocks()) converter.add(block);
  for (const auto& frame : container_frames) converter.add_container_names(*frame);
  for (const auto& block : process_blocks) converter.add_process_block(*block);
  for (const auto& frame : container_frames) converter.add_container_frame(*frame);
  converter.finish();
  return out;
}

// A process frame at `offset_ns` from the known start: one process in container "aaa…" by its
// id, one in "bbb…" by its cgroup path alone, one of the host.
process::ProcessFrame frame_with_containers(int64_t offset_ns) {
  process::ProcessFrame frame{.time_unix_ns = kKnownStartNs + offset_ns};
  frame.processes = {
      {.pid = 10,
       .comm = "nginx",
       .cgroup = "/kubepods/burstable/pod1234/" + std::string(64, 'a'),
       .container_id = std::string(64, 'a')},
      {.pid = 11,
       .comm = "worker",
       .cgroup = "/kubepods/burstable/pod1234/" + std::string(64, 'b') + "/init.scope"},
      {.pid = 12, .comm = "sshd", .cgroup = "/system.slice/ssh.service"}};
  return frame;
}

}  // namespace

TEST_CASE("JSON output lists the container frames after the process frames", "[convert]") {
  const auto doc = nlohmann::json::parse(convert_with_containers());
  CHECK(doc["processes"].size() == 2);
  const auto& frames = doc["containers"];
  REQUIRE(frames.size() == 4);
  // Each frame its own set: the second container is in frames 1 and 2 only.
  CHECK(frames[0]["containers"].size() == 1);
  CHECK(frames[1]["containers"].size() == 2);
  CHECK(frames[3]["containers"].size() == 1);

  const auto& frame = frames[1];
  CHECK(frame["time"].get<double>() == Approx(1'700'000'000.1));
  CHECK(frame["mode"] == "hybrid");
  CHECK(frame["episodes_recorded"] == true);
  const auto& row = frame["containers"][0];
  CHECK(row["id"] == std::string(64, 'a'));
  CHECK(row["runtime"] == "cri");
  CHECK(row["qos"] == "burstable");
  CHECK(row["namespace"] == "prod");
  CHECK(row["pod"] == "checkout-7f9c");
  CHECK(row["container"] == "app");
  CHECK(row["image"] == "nginx:1.25");
  CHECK(row["cgroup_id"] == 1001);
  CHECK(row["cpu_cores"].get<double>() == Approx(0.2));
  CHECK(row["throttled_share"].is_null());  // the first step has none
  CHECK(row["cpu"]["usage_us"] == 1'000'000);
  CHECK(row["cpu"]["quota_us"] == 20'000);
  CHECK(row["cpu"]["bursts"].is_null());         // absent: null
  CHECK(row["memory"]["limit_bytes"] == "max");  // unlimited: "max"
  CHECK(row["memory"]["events"]["oom_kill"] == 0);
  CHECK(row["io"][0]["device"] == "8:0");
  CHECK(row["io"][0]["read_bytes"] == 4096);
  CHECK(row["pids"]["max"] == "max");

  // Fast reads and episodes are rows of their columns; episode times are on the wall clock.
  CHECK(doc["container_fast_read_columns"][2] == "usage_us");
  const auto& read = frame["fast_reads"][0];
  CHECK(read[0].get<double>() == Approx(1'700'000'000.05));
  CHECK(read[1] == 0);
  CHECK(read[5] == 90'000);
  const auto& episode = frame["episodes"][0];
  CHECK(episode[0] == 1001);
  CHECK(episode[1].get<double>() == Approx(1'700'000'000.02));  // 80 ms before the frame
  CHECK(episode[2].get<double>() == Approx(1'700'000'000.08));
  CHECK(episode[6].get<double>() == Approx(0.06));
  CHECK(episode[10] == true);
}

TEST_CASE("JSON process rows name their container from the container frame nearest them",
          "[convert]") {
  // Container frames at 0, 100, 200 and 300 ms; "bbb…" is in those of 100 and 200 ms only.
  const std::vector<process::ProcessFrame> frames{frame_with_containers(150'000'000),
                                                  frame_with_containers(350'000'000)};
  const ProcessBlockList blocks{store::ProcessBlock::encode(frames)};
  const auto doc = nlohmann::json::parse(convert_with_containers({}, blocks));
  const auto at = [&doc](std::string_view name) {
    const auto& names = doc["process_columns"];
    return static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin());
  };
  REQUIRE(at("container_name") == at("container_id") + 1);
  const auto names = [&](size_t frame) {
    std::vector<std::string> out;
    for (const auto& row : doc["processes"][frame]["processes"]) {
      out.push_back(row[at("container_name")].get<std::string>());
    }
    return out;
  };
  using Names = std::vector<std::string>;
  // At 150 ms the frames of 100 and 200 ms are as near: the earlier, which holds both containers.
  CHECK(names(0) == Names{"prod/checkout-7f9c/app", "prod/checkout-7f9c/app", ""});
  // At 350 ms the frame of 300 ms, which no longer holds "bbb…".
  CHECK(names(1) == Names{"prod/checkout-7f9c/app", "", ""});
}

TEST_CASE("JSON output keeps only the container frames inside the range", "[convert]") {
  const int64_t second = kKnownStartNs + 100'000'000;
  const auto doc = nlohmann::json::parse(
      convert_with_containers({.from_real_ns = second, .to_real_ns = second}));
  REQUIRE(doc["containers"].size() == 1);
  CHECK(doc["containers"][0]["containers"].size() == 2);
}

TEST_CASE("dump_file converts the container frames of a recording", "[convert]") {
  const flightrec::testing::TempDir dir;
  const auto path = dir.file("containers.fltrec");
  REQUIRE(write_recording_atomically(path, known_metadata(), known_blocks(), known_process_blocks(),
                                     stored_container_frames(known_container_frames()))
              .ok());
  std::ostringstream json, err;
  CHECK(dump_file(path, "json", json, err) == 0);
  CHECK(err.str().empty());
  CHECK(json.str() == convert_with_containers());
}
