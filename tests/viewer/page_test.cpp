#include "flightrec/viewer/page.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "flightrec/model/incident_description.h"
#include "synthetic_recording.h"

namespace flightrec::viewer {
namespace {

using testing::synthetic_recording;

size_t count(std::string_view text, std::string_view needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string_view::npos;
       at = text.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

std::string_view between(std::string_view text, std::string_view open, std::string_view close) {
  const size_t from = text.find(open);
  REQUIRE(from != std::string_view::npos);
  const size_t begin = from + open.size();
  const size_t end = text.find(close, begin);
  REQUIRE(end != std::string_view::npos);
  return text.substr(begin, end - begin);
}

TEST_CASE("shouldNeverLetRecordedStringsCloseTheDataScript") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const ViewOptions options{.title = "</script> title",
                            .details = {{"rule", "<!-- & </SCRIPT"}},
                            .trigger_ns = rec.trigger_ns};
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks, options);
  // Exactly the page's own three scripts close: the data, uPlot and the viewer's.
  CHECK(count(page, "</script") == 3);
  CHECK(count(page, "<!--") == 0);
  const auto data =
      between(page, "<script type=\"application/json\" id=\"flightrec-data\">", "</script>");
  CHECK(data.find('<') == std::string_view::npos);
  CHECK(data.find('>') == std::string_view::npos);
  CHECK(data.find('&') == std::string_view::npos);
  // The strings are still there, \u-escaped, for the page to show as text.
  CHECK(data.find(R"("comm":"\u003c/script\u003e\u003cb\u003e")") != std::string_view::npos);
  CHECK(data.find(R"(sh -c '\u003c/script\u003e\u003cscript\u003ealert(1))") !=
        std::string_view::npos);
  CHECK(between(page, "<title>", "</title>") == "&lt;/script&gt; title - flightrec");
}

TEST_CASE("shouldWriteTimesAsSecondsFromT0AndTheTriggerAsUnixSeconds") {
  const auto rec = synthetic_recording(3, 1);
  const auto window = key_signals(rec.metadata, rec.blocks);
  const auto json = view_json(rec.metadata, window, {}, {.trigger_ns = rec.trigger_ns});
  CHECK(json.find("\"t0\":1764478800,\n\"t\":[0,0.001,0.002]") != std::string::npos);
  CHECK(json.find("\"trigger\":1764478800.001") != std::string::npos);
  CHECK(json.find("\"resolution_seconds\":0.001,\"frames\":3,\"bucket_ticks\":1") !=
        std::string::npos);
  // The first tick has no rate yet: null, not NaN (which JSON cannot hold).
  CHECK(json.find("{\"label\":\"total\",\"values\":[null,") != std::string::npos);
  CHECK(json.find("NaN") == std::string::npos);
  CHECK(view_json(rec.metadata, window, {}, {}).find("\"trigger\":null") != std::string::npos);
}

TEST_CASE("shouldRoundRatiosToFourDecimalsAndBytesToWholeNumbers") {
  SignalWindow window;
  window.times_ns = {0, 1};
  window.charts = {{"cpu", "CPU busy", "ratio", {{"total", {0.123456, -0.0}}}},
                   {"disk", "Disk", "bytes/s", {{"sda read", {1234.56, 1e9}}}}};
  const auto json = view_json({}, window, {}, {});
  CHECK(json.find("\"values\":[0.1235,0]") != std::string::npos);
  CHECK(json.find("\"values\":[1235,1000000000]") != std::string::npos);
}

TEST_CASE("shouldListTheTopProcessesAroundTheTrigger") {
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks,
                                     {.trigger_ns = rec.trigger_ns + 1'000'000});
  // Frames at 1000 and 1250 ms: the burner used two CPUs throughout.
  const auto processes = between(page, "\"processes\":{", "]}");
  CHECK(processes.find("\"from\":1764478801,\"to\":1764478801.25") != std::string_view::npos);
  CHECK(processes.find("{\"pid\":400,") < processes.find("{\"pid\":900,"));
  CHECK(processes.find("\"cpu\":2,") != std::string_view::npos);
}

TEST_CASE("shouldLookAtTheCpuPeakWithoutATrigger") {
  const auto rec = synthetic_recording(3'000, 2'000);
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks, {});
  CHECK(page.find("\"trigger\":null") != std::string::npos);
  CHECK(between(page, "\"processes\":{", ",\"sort\"") ==
        "\"from\":1764478802,\"to\":1764478802.25");
}

TEST_CASE("shouldSayThereAreNoProcessesWhenTheRecordingHasNone") {
  const auto rec = synthetic_recording(100, 50);
  const auto page = render_view_page(rec.metadata, rec.blocks, {}, {});
  CHECK(page.find("\"processes\":{\"from\":null,\"to\":null,\"sort\":\"cpu\",\"growth_from\":null,"
                  "\"growth_to\":null,\"rows\":[]}") != std::string::npos);
}

using Details = std::vector<std::pair<std::string, std::string>>;

recording::Metadata incident_metadata(const model::IncidentDescription& incident) {
  recording::Metadata metadata{.host = "db1"};
  model::encode_incident(incident, metadata.extra);
  return metadata;
}

TEST_CASE("shouldShowAManualIncidentsReasonInTheHeader") {
  const std::string reason = "deploy of v2.3 </script><b> & \"canary\"";
  const auto options =
      incident_view_options("20251130T050001.500Z-manual",
                            incident_metadata({.kind = model::IncidentKind::manual,
                                               .rule = "manual",
                                               .reason = reason,
                                               .fired_at_ns = 1'764'478'801'500'000'000,
                                               .window_from_ns = 1'764'478'800'000'000'000,
                                               .window_to_ns = 1'764'478'803'000'000'000}));
  CHECK(options.title == "Incident 20251130T050001.500Z-manual");
  CHECK(options.details ==
        Details{{"kind", "manual"},
                {"rule", "manual"},
                {"reason", reason},
                {"fired at", "2025-11-30T05:00:01.500Z"},
                {"window", "2025-11-30T05:00:00.000Z to 2025-11-30T05:00:03.000Z"},
                {"host", "db1"}});
  CHECK(options.trigger_ns == 1'764'478'801'500'000'000);
  // In the page's data it stays text: \u-escaped where it could end the script.
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks, options);
  CHECK(page.find(
            R"(["reason","deploy of v2.3 \u003c/script\u003e\u003cb\u003e \u0026 \"canary\""])") !=
        std::string::npos);
}

TEST_CASE("shouldShowARulesConditionSeriesAndValueInTheHeader") {
  const auto options = incident_view_options(
      "x", incident_metadata({.rule = "cpu_busy",
                              .condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8",
                              .value = 0.97,
                              .series = "cpu_busy_ratio{cpu=\"total\"}",
                              .fired_at_ns = 1'764'478'801'500'000'000}));
  REQUIRE(options.details.size() == 8);
  CHECK(options.details[0] == std::pair<std::string, std::string>{"kind", "rule"});
  CHECK(options.details[1] == std::pair<std::string, std::string>{"rule", "cpu_busy"});
  CHECK(options.details[2] ==
        std::pair<std::string, std::string>{"condition", "cpu_busy_ratio{cpu=\"total\"} > 0.8"});
  CHECK(options.details[3] ==
        std::pair<std::string, std::string>{"series", "cpu_busy_ratio{cpu=\"total\"}"});
  CHECK(options.details[4] == std::pair<std::string, std::string>{"value", "97.0%"});
  // The rule's signal is charted: its threshold is drawn there; a CPU rule sorts by CPU.
  REQUIRE(options.threshold);
  CHECK(options.threshold->chart == "cpu");
  CHECK(options.threshold->value == 0.8);
  CHECK(options.process_sort == ProcessSort::cpu);
  const auto rec = synthetic_recording(100, 50);
  const auto page = render_view_page(rec.metadata, rec.blocks, {}, options);
  CHECK(page.find(R"("threshold":{"chart":"cpu","value":0.8,)"
                  R"("label":"cpu_busy_ratio{cpu=\"total\"} \u003e 0.8"})") != std::string::npos);
}

TEST_CASE("shouldShowAMemoryRulesValueInBinaryUnitsAndSortItsProcessesByRss") {
  const auto options = incident_view_options(
      "x", incident_metadata(
               {.rule = "memory_high",
                .condition = "memory_used_bytes > 2147483648",
                .value = 2168508416,
                .series = "memory_used_bytes",
                .fired_at_ns = 1'764'478'801'500'000'000,
                .details = {{"oom.victim_rss_bytes", "1048576"}, {"note_bytes", "many"}}}));
  CHECK(std::count(options.details.begin(), options.details.end(),
                   std::pair<std::string, std::string>{"value", "2.02 GiB"}) == 1);
  // A byte count among the details reads in binary units too, the exact number kept beside it.
  CHECK(std::count(options.details.begin(), options.details.end(),
                   std::pair<std::string, std::string>{"oom.victim_rss_bytes",
                                                       "1.00 MiB (1048576)"}) == 1);
  CHECK(std::count(options.details.begin(), options.details.end(),
                   std::pair<std::string, std::string>{"note_bytes", "many"}) == 1);
  CHECK(options.process_sort == ProcessSort::rss);
  REQUIRE(options.threshold);
  CHECK(options.threshold->chart == "memory");
  CHECK(options.threshold->value == 2147483648.0);
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks, options);
  // postgres (300 MiB, little CPU) before the leaker (50 MiB and growing, idle) before the burner
  // (3 MiB, two CPUs), each with its growth over the window: the leaker grew 7 MiB in 8 frames.
  const auto processes = between(page, "\"processes\":{", "]}");
  CHECK(processes.find("\"sort\":\"rss\"") != std::string_view::npos);
  CHECK(processes.find("{\"pid\":900,") < processes.find("{\"pid\":950,"));
  CHECK(processes.find("{\"pid\":950,") < processes.find("{\"pid\":400,"));
  CHECK(processes.find("\"rss\":314572800,\"growth\":0,") != std::string_view::npos);
  CHECK(processes.find("\"growth\":7340032,") != std::string_view::npos);
  CHECK(processes.find("\"growth_from\":1764478800,\"growth_to\":1764478801.75") !=
        std::string_view::npos);
}

TEST_CASE("shouldShowAnIncidentFromBeforeReasonsWithoutConditionOrReason") {
  recording::Metadata old{.host = "db1"};
  old.extra = {{"incident.rule", "cpu_busy"},
               {"incident.value", "0.93"},
               {"incident.series", "cpu_busy_ratio{cpu=\"total\"}"},
               {"incident.fired_at_ns", "1764478800010000000"},
               {"incident.window_from_ns", "1764478795010000000"},
               {"incident.window_to_ns", "1764478801010000000"}};
  const auto options = incident_view_options("x", old);
  std::vector<std::string> keys;
  for (const auto& [key, value] : options.details) keys.push_back(key);
  CHECK(keys ==
        std::vector<std::string>{"kind", "rule", "series", "value", "fired at", "window", "host"});
  CHECK(options.details[0].second == "rule");  // no kind stored: a rule's, by its name
}

model::IncidentDescription oom_incident(Details details) {
  return {.kind = model::IncidentKind::oom_kill,
          .rule = "oom_kill",
          .condition = "oom_kills_per_second > 0",
          .value = 1000,
          .fired_at_ns = 1'764'478'801'004'000'000,
          .window_from_ns = 1'764'478'800'000'000'000,
          .window_to_ns = 1'764'478'803'000'000'000,
          .details = std::move(details)};
}

TEST_CASE("shouldMarkAnOomKillWithItsVictimAndListTheTopConsumers") {
  const auto options = incident_view_options(
      "x", incident_metadata(
               oom_incident({{"oom.victim_pid", "468"},
                             {"oom.victim_command", "python3"},
                             {"oom.killed_at_ns", "1764478800900000000"},
                             {"oom.top_rss_at_ns", "1764478800750000000"},
                             {"oom.top_rss.1", "pid=468 rss_bytes=67108864 comm=python3"},
                             {"oom.top_rss.2", "pid=900 rss_bytes=1048576 comm=</script><b>"},
                             {"oom.top_rss.3", "not an entry"}})));
  REQUIRE(options.oom_kill);
  CHECK(options.oom_kill->killed_at_ns == 1'764'478'800'900'000'000);
  CHECK(options.oom_kill->victim == "468 python3");
  CHECK(options.oom_kill->top_rss.size() == 2);
  // Every detail still shows as text in the header.
  CHECK(std::count(options.details.begin(), options.details.end(),
                   std::pair<std::string, std::string>{"oom.victim_pid", "468"}) == 1);
  const auto rec = synthetic_recording(2'000, 1'000);
  const auto page = render_view_page(rec.metadata, rec.blocks, rec.process_blocks, options);
  CHECK(between(page, "\"oom\":", ",\n\"threshold\"") ==
        R"({"killed_at":1764478800.9,"victim":"468 python3","top_rss_at":1764478800.75,)"
        R"("top_rss":[{"pid":468,"comm":"python3","rss":67108864},)"
        R"({"pid":900,"comm":"\u003c/script\u003e\u003cb\u003e","rss":1048576}]})");
  // The top processes are compared around the kill (frames at 750 and 1000 ms), not the firing
  // (1000 and 1250 ms).
  CHECK(between(page, "\"processes\":{", ",\"growth_from\"") ==
        "\"from\":1764478800.75,\"to\":1764478801,\"sort\":\"rss\"");
  // oom_kills_per_second is not charted: no threshold line.
  CHECK(page.find("\"threshold\":null") != std::string::npos);
  CHECK(page.find("<section id=\"oom\" hidden>") != std::string::npos);
}

TEST_CASE("shouldNotMarkAnOomIncidentWithoutAKillTimeNorOtherIncidents") {
  const auto unknown = incident_view_options(
      "x", incident_metadata(oom_incident({{"oom.victim", "unknown: no kill"}})));
  CHECK_FALSE(unknown.oom_kill);
  const auto bad_time =
      incident_view_options("x", incident_metadata(oom_incident({{"oom.killed_at_ns", "soon"}})));
  CHECK_FALSE(bad_time.oom_kill);
  const auto rec = synthetic_recording(100, 50);
  const auto page = render_view_page(rec.metadata, rec.blocks, {}, unknown);
  CHECK(page.find("\"oom\":null") != std::string::npos);
}

TEST_CASE("shouldListAnAlertsLabelsAnnotationsAndGeneratorUrlInTheHeader") {
  const auto options = incident_view_options(
      "x", incident_metadata({.kind = model::IncidentKind::alert,
                              .rule = "alert",
                              .condition = "alertmanager alert",
                              .series = "HighLoad{severity=\"critical\"}",
                              .reason = "CPU above 90%",
                              .fired_at_ns = 1'764'478'801'500'000'000,
                              .details = {{"alert.generator_url", "http://prometheus/graph"},
                                          {"alert.label.alertname", "HighLoad"},
                                          {"alert.label.severity", "critical"},
                                          {"alert.annotation.description", "load <b>12</b>"}}}));
  for (const auto& detail : Details{{"alert.generator_url", "http://prometheus/graph"},
                                    {"alert.annotation.description", "load <b>12</b>"}}) {
    CHECK(std::count(options.details.begin(), options.details.end(), detail) == 1);
  }
  // The labels are a table of their own, said once: not among the details, no label set as the
  // series.
  CHECK(options.labels == Details{{"alertname", "HighLoad"}, {"severity", "critical"}});
  for (const auto& [key, value] : options.details) {
    CHECK_FALSE(key.starts_with("alert.label."));
    CHECK(key != "series");
  }
  const auto rec = synthetic_recording(100, 50);
  const auto page = render_view_page(rec.metadata, rec.blocks, {}, options);
  CHECK(page.find(R"("labels":[["alertname","HighLoad"],["severity","critical"]])") !=
        std::string::npos);
  CHECK(page.find("<table id=\"labels\" hidden>") != std::string::npos);
  CHECK(page.find(R"(["alert.annotation.description","load \u003cb\u003e12\u003c/b\u003e"])") !=
        std::string::npos);
  CHECK(page.find(R"(["alert.generator_url","http://prometheus/graph"])") != std::string::npos);
}

}  // namespace
}  // namespace flightrec::viewer
