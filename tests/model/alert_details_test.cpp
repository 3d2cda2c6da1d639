// An alert incident's "alert.*" details read back: its labels and annotations apart, and the
// alert named as Alertmanager's users know it.
#include "flightrec/model/alert_details.h"

#include <catch2/catch.hpp>

using namespace flightrec;

namespace {

model::IncidentDescription alert(recording::Labels details) {
  return {.rule = "alert", .reason = "CPU busy (title)", .details = std::move(details)};
}

}  // namespace

TEST_CASE("shouldSplitAnAlertsDetailsIntoLabelsAndAnnotations", "[model][alert]") {
  const auto details = model::alert_details(alert({{"alert.source", "grafana"},
                                                   {"alert.status", "resolved"},
                                                   {"alert.generator_url", "http://g/rule"},
                                                   {"alert.label.alertname", "HighLoad"},
                                                   {"alert.label.instance", "web-1"},
                                                   {"alert.annotation.summary", "CPU at 95%"},
                                                   {"oom.victim_pid", "12"}}));
  CHECK(details.any);
  CHECK(details.source == "grafana");
  CHECK(details.status == "resolved");
  CHECK(details.generator_url == "http://g/rule");
  CHECK(details.labels == recording::Labels{{"alertname", "HighLoad"}, {"instance", "web-1"}});
  CHECK(details.annotations == recording::Labels{{"summary", "CPU at 95%"}});
  CHECK(details.label("instance") == "web-1");
  CHECK(details.annotation("description").empty());
  CHECK_FALSE(model::alert_details(alert({{"oom.victim_pid", "12"}})).any);
}

TEST_CASE("shouldNameAnAlertByAlertnameSeverityAndSummary", "[model][alert]") {
  const auto full = alert({{"alert.label.alertname", "HighLoad"},
                           {"alert.label.severity", "critical"},
                           {"alert.annotation.summary", "CPU at 95%"}});
  CHECK(model::alert_headline(full, model::alert_details(full)) ==
        "HighLoad (critical): CPU at 95%");
  // No severity, no summary (Grafana's title is the reason), no alertname.
  const auto bare = alert({{"alert.source", "grafana"}});
  CHECK(model::alert_headline(bare, model::alert_details(bare)) == "alert: CPU busy (title)");
}

TEST_CASE("shouldWriteALabelSetAsPrometheusDoes", "[model][alert]") {
  CHECK(model::label_set_text({}) == "{}");
  CHECK(model::label_set_text({{"alertname", "A"}, {"path", "C:\\x \"q\"\nz"}}) ==
        R"({alertname="A",path="C:\\x \"q\"\nz"})");
}
