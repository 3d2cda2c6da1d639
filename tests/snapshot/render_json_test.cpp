#include <array>
#include <catch2/catch.hpp>
#include <cstdio>

#include "flightrec/snapshot/render.h"
#include "snapshot_fixture.h"
#include "temp_dir.h"

using flightrec::snapshot::render_json;

namespace {

// Runs the schema checker on `json`; returns its output, or "exit N" plus output on failure.
std::string check_with_python(const std::string& json) {
  const flightrec::testing::TempDir dir("flightrec-snapshot");
  const auto path = dir.write("snapshot.json", json);
  const std::string script =
      std::string(FLIGHTREC_FIXTURES) + "/../snapshot/check_snapshot_json.py";
  FILE* pipe = ::popen(("python3 '" + script + "' '" + path.string() + "' 2>&1").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string output;
  std::array<char, 4096> chunk{};
  while (const size_t n = std::fread(chunk.data(), 1, chunk.size(), pipe))
    output.append(chunk.data(), n);
  const int status = ::pclose(pipe);
  if (status != 0) output = "exit " + std::to_string(status) + ": " + output;
  return output;
}

}  // namespace

TEST_CASE("render_json output parses in Python and follows the documented schema",
          "[render_json]") {
  const std::string output =
      check_with_python(render_json(flightrec::test::FixtureSnapshot().take()));
  INFO(output);
  CHECK(output.rfind("schema ok\n", 0) == 0);
  CHECK_THAT(output, Catch::Matchers::Contains("5196 nobody \"sleep\"\n"));
  CHECK_THAT(output, Catch::Matchers::Contains("5383 root \"(a) b)\"\n"));
  CHECK_THAT(output, Catch::Matchers::Contains("5384 root \"esc\\u001b[31m\\nred\"\n"));
}

TEST_CASE("render_json keeps a process whose comm is not valid UTF-8 parseable", "[render_json]") {
  auto snapshot = flightrec::test::FixtureSnapshot().take();
  snapshot.processes[0].comm = "bad\xff\xfe\"\\";
  snapshot.errors.emplace_back("/proc/9/stat: \x01 odd");
  const std::string output = check_with_python(render_json(snapshot));
  INFO(output);
  CHECK_THAT(output, Catch::Matchers::Contains("2 root \"bad\\ufffd\\ufffd\\\"\\\\\"\n"));
}

TEST_CASE("render_json writes schema_version 1 and exact integers for unscaled series",
          "[render_json]") {
  const std::string json = render_json(flightrec::test::FixtureSnapshot().take());
  CHECK_THAT(json, Catch::Matchers::StartsWith("{\n  \"schema_version\": 1,\n"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"value\": 1234567890123,"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"value\": 90.36,"));
  CHECK_THAT(json, Catch::Matchers::Contains("\"time\": \"2026-11-30T17:33:20.250Z\""));
  CHECK_THAT(json, Catch::Matchers::Contains("\"device\": \"vda\""));
  CHECK_THAT(json, Catch::Matchers::EndsWith("}\n"));
}
