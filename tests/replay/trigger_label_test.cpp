// An incident's description as replay shows it: the trigger's label on the screen and in batch
// text, and the stored text exact in batch JSON.
#include <algorithm>
#include <catch2/catch.hpp>

#include "flightrec/common/json_writer.h"
#include "flightrec/model/incident_description.h"
#include "flightrec/replay/batch.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/screen.h"
#include "flightrec/replay/session.h"
#include "replay_fixture.h"

using namespace flightrec;
using namespace flightrec::replay;
using namespace flightrec::replay::testing;

namespace {

constexpr std::string_view kReason = "during the deploy of v2.3 (canary: 10%, \"eu\")";

recording::Metadata with_incident(const model::IncidentDescription& incident) {
  recording::Metadata meta;
  model::encode_incident(incident, meta.extra);
  return meta;
}

model::IncidentDescription manual(std::string reason) {
  return {.kind = model::IncidentKind::manual,
          .rule = "manual",
          .reason = std::move(reason),
          .fired_at_ns = kTriggerNs};
}

// The fixture recording with `incident` in place of its own (older) incident metadata.
Model model_with(const model::IncidentDescription& incident) {
  ReplayData data = fixture();
  data.meta.extra = with_incident(incident).extra;
  return Model(std::move(data), fixture_users());
}

}  // namespace

TEST_CASE("aManualTriggerIsLabelledWithItsReason", "[replay][trigger]") {
  const auto triggers = triggers_of(with_incident(manual(std::string(kReason))));
  REQUIRE(triggers.size() == 1);
  CHECK(triggers[0].time_ns == kTriggerNs);
  CHECK(triggers[0].label == "manual: " + std::string(kReason));
  CHECK(triggers[0].incident.reason == kReason);
}

TEST_CASE("aRuleTriggerIsLabelledWithItsConditionAndValue", "[replay][trigger]") {
  const auto triggers =
      triggers_of(with_incident({.rule = "cpu_busy",
                                 .condition = "cpu_busy_ratio{cpu=\"total\"} > 0.8",
                                 .value = 0.93,
                                 .series = "cpu_busy_ratio{cpu=\"total\"}",
                                 .fired_at_ns = kTriggerNs}));
  REQUIRE(triggers.size() == 1);
  CHECK(triggers[0].label == "cpu_busy: cpu_busy_ratio{cpu=\"total\"} > 0.8 (value 93.0%)");
}

TEST_CASE("aReasonCannotSendEscapeSequencesToTheTerminal", "[replay][trigger]") {
  const auto triggers = triggers_of(with_incident(manual("a\x1b[2J\nb\xc3\xa9")));
  REQUIRE(triggers.size() == 1);
  CHECK(triggers[0].label == "manual: a?[2J?b??");
}

TEST_CASE("theStatusLineAndTheTriggerKeyShowTheReason", "[replay][trigger]") {
  const Model model = model_with(manual(std::string(kReason)));
  Session session(model, 0, Tab::processes, 1'000'000'000);
  CHECK_THAT(render_screen(session, 200, 24)[5].text,
             Catch::Contains("trigger(!) +2.000s manual: " + std::string(kReason)));
  session.handle_key('i');
  CHECK(session.message() == "trigger: manual: " + std::string(kReason));
}

TEST_CASE("batchOutputCarriesTheReasonExactlyInJsonAndAsALabelInText", "[replay][trigger]") {
  const Model model = model_with(manual(std::string(kReason)));
  const BatchView view{.cursor = model.timeline().size() - 1, .interval_ns = 1'000'000'000};
  CHECK_THAT(render_batch(model, view, BatchFormat::text),
             Catch::Contains("trigger   manual: " + std::string(kReason) +
                             " at 2025-11-30T05:00:02.000Z (+2.000s)\n"));
  std::string quoted;
  append_json_string(quoted, kReason);
  const std::string json = render_batch(model, view, BatchFormat::json);
  CHECK_THAT(json, Catch::Contains("\"kind\": \"manual\",\n"));
  CHECK_THAT(json, Catch::Contains("\"rule\": \"manual\""));
  CHECK_THAT(json, Catch::Contains("\"reason\": " + quoted));
  CHECK_THAT(json, Catch::Contains("\"value\": null"));
}

TEST_CASE("batchTextNamesAnOomVictimItsCgroupSizeAndSourceOrWhyNone", "[replay][trigger][oom]") {
  model::IncidentDescription oom{.kind = model::IncidentKind::oom_kill,
                                 .rule = "oom_kill",
                                 .condition = "oom_kills_per_second > 0",
                                 .value = 250,
                                 .fired_at_ns = kTriggerNs,
                                 .details = {{"oom.victim_pid", "201"},
                                             {"oom.victim_command", "python3"},
                                             {"oom.victim_cgroup", "/pods/a"},
                                             {"oom.victim_exit_peak_rss_bytes", "67108864"},
                                             {"oom.victim_source", "ebpf_exit"}}};
  const BatchView view{.cursor = 0, .interval_ns = 1'000'000'000};
  const std::string named = render_batch(model_with(oom), view, BatchFormat::text);
  CHECK_THAT(named, Catch::Contains("trigger   oom_kill: oom_kills_per_second > 0 (value 250/s), "
                                    "killed 201 python3 (peak 64M) at "));
  CHECK_THAT(named, Catch::Contains("\nvictim    201 python3, cgroup /pods/a, peak 64M at exit, "
                                    "named by the eBPF exit report\n"));
  CHECK_THAT(named, Catch::Contains("by the eBPF exit report\nkind      oom_kill\n"));
  oom.details = {{"oom.victim", "unknown: /dev/kmsg: Operation not permitted"}};
  CHECK_THAT(render_batch(model_with(oom), view, BatchFormat::text),
             Catch::Contains("\nvictim    unknown: /dev/kmsg: Operation not permitted\n"));
  // Other incidents have no victim line.
  CHECK_THAT(render_batch(model_with(manual("deploy")), view, BatchFormat::text),
             !Catch::Contains("\nvictim "));
}

namespace {

// An Alertmanager alert as the receiver stores it (trigger/alert_receiver.cpp).
model::IncidentDescription alert() {
  return {.kind = model::IncidentKind::alert,
          .rule = "alert",
          .condition = "alertmanager alert",
          .series = "HighLoad{instance=\"web-1\",severity=\"critical\"}",
          .reason = "CPU above 90% on web-1",
          .fired_at_ns = kTriggerNs,
          .details = {{"alert.source", "alertmanager"},
                      {"alert.generator_url", "http://prometheus:9090/graph?g0.expr=up"},
                      {"alert.label.alertname", "HighLoad"},
                      {"alert.label.instance", "web-1"},
                      {"alert.label.severity", "critical"},
                      {"alert.annotation.description", "load 12.5\nsee the \x1b[2Jrunbook"},
                      {"alert.annotation.no\nte", "named\r\nannotation forged"},
                      {"alert.annotation.summary", "CPU above 90% on web-1"}}};
}

}  // namespace

TEST_CASE("anAlertIsLabelledByAlertnameSeverityAndSummary", "[replay][trigger][alert]") {
  const Model model = model_with(alert());
  REQUIRE(model.triggers().size() == 1);
  CHECK(model.triggers()[0].label == "alert: HighLoad (critical): CPU above 90% on web-1");
  Session session(model, 0, Tab::processes, 1'000'000'000);
  CHECK_THAT(render_screen(session, 200, 24)[5].text,
             Catch::Contains("trigger(!) +2.000s alert: HighLoad (critical): CPU above 90%"));
}

TEST_CASE("batchTextPrintsAnAlertsLabelsAnnotationsAndGeneratorUrl", "[replay][trigger][alert]") {
  const BatchView view{.cursor = 0, .interval_ns = 1'000'000'000};
  const std::string text = render_batch(model_with(alert()), view, BatchFormat::text);
  CHECK_THAT(text,
             Catch::Contains(
                 "\nlabels    {alertname=\"HighLoad\",instance=\"web-1\",severity=\"critical\"}"
                 "\nannotation description: load 12.5\\x0asee the \\x1b[2Jrunbook"
                 "\nannotation no\\x0ate: named\\x0d\\x0aannotation forged"
                 "\nannotation summary: CPU above 90% on web-1"
                 "\ngenerator http://prometheus:9090/graph?g0.expr=up\n"
                 "kind      alert\n"));
  // One line each: no value starts a line of its own.
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK_THAT(text, !Catch::Contains("\nannotation forged"));
  CHECK_THAT(text, !Catch::Contains("\nte: "));
  CHECK_THAT(render_batch(model_with(manual("deploy")), view, BatchFormat::text),
             !Catch::Contains("\nlabels "));
}

TEST_CASE("theDetailsKeyShowsTheTriggersLabelsAndAnyKeyReturns", "[replay][trigger][alert]") {
  const Model model = model_with(alert());
  Session session(model, 0, Tab::processes, 1'000'000'000);
  session.handle_key('d');
  REQUIRE(session.mode() == Mode::details);
  const auto lines = render_screen(session, 100, 24);
  CHECK_THAT(lines[2].text,
             Catch::StartsWith("trigger   alert: HighLoad (critical): CPU above 90% on web-1"));
  CHECK_THAT(lines[3].text, Catch::StartsWith("at        2025-11-30T05:00:02.000Z (+2.000s)"));
  CHECK_THAT(lines[4].text, Catch::StartsWith("labels    {alertname=\"HighLoad\""));
  // A line wider than the screen goes on under the text's column, not cut.
  const auto narrow = render_screen(session, 40, 24);
  const auto labels = std::find_if(narrow.begin(), narrow.end(), [](const ScreenLine& line) {
    return line.text.starts_with("labels");
  });
  REQUIRE(labels + 1 < narrow.end());
  CHECK(labels->text == "labels    {alertname=\"HighLoad\",instance");
  CHECK((labels + 1)->text == "          =\"web-1\",severity=\"critical\"} ");
  session.handle_key('x');
  CHECK(session.mode() == Mode::normal);

  const Model plain = model_with({});
  Session without(plain, 0, Tab::processes, 1'000'000'000);
  without.handle_key('d');
  CHECK(without.mode() == Mode::normal);
  CHECK(without.message() == "this recording has no trigger point");
}

TEST_CASE("aTriggerWithAlertDetailsButAnotherKindIsNotLabelledAsAnAlert",
          "[replay][trigger][alert]") {
  // The kind decides, not the details' keys: a rule's incident stays labelled by its condition.
  model::IncidentDescription rule = alert();
  rule.kind = model::IncidentKind::rule;
  rule.rule = "cpu_busy";
  const auto triggers = triggers_of(with_incident(rule));
  REQUIRE(triggers.size() == 1);
  CHECK(triggers[0].label == "cpu_busy: alertmanager alert: CPU above 90% on web-1");
  CHECK(triggers[0].detail_lines == std::vector<std::string>{"kind      rule"});
}

TEST_CASE("aTriggerFromBeforeKindsWereStoredShowsTheKindItsRuleNameStoodFor", "[replay][trigger]") {
  recording::Metadata old;
  old.extra = {{"incident.rule", "manual"}, {"incident.fired_at_ns", std::to_string(kTriggerNs)}};
  const auto triggers = triggers_of(old);
  REQUIRE(triggers.size() == 1);
  CHECK(triggers[0].incident.kind == model::IncidentKind::manual);
  CHECK(triggers[0].detail_lines == std::vector<std::string>{"kind      manual"});
}
