// `flightrec incidents ID`: one incident in full, every detail on a line of its own.
#include "flightrec/incidents/show_command.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;

namespace {

IncidentEntry write_alert(IncidentStore& store) {
  auto alert = make_info("alert", 1000);
  alert.condition = "alertmanager alert";
  alert.series = "HighLoad{instance=\"web-1\",severity=\"critical\"}";
  alert.reason = "CPU above 90% on web-1";
  alert.details = {{"alert.source", "alertmanager"},
                   {"alert.generator_url", "http://prometheus:9090/graph?g0.expr=up"},
                   {"alert.label.alertname", "HighLoad"},
                   {"alert.label.severity", "critical"},
                   {"alert.label.instance", "web-1\nalert.label.forged  yes\xff"},
                   {"alert.annotation.description", "load 12.5 for 5m\nsee the \x1b[2Jrunbook"},
                   {"alert.annotation.summary", "CPU above 90% on web-1"}};
  return store.write(alert, make_metadata(),
                     std::vector<std::shared_ptr<const flightrec::store::Block>>{make_block(10)});
}

}  // namespace

TEST_CASE("flightrec incidents ID lists an alert's labels, annotations and generatorURL",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentEntry entry;
  {
    IncidentStore store({.dir = dir.path()});
    entry = write_alert(store);
  }
  std::ostringstream out;
  REQUIRE(show_incident_command(dir.path(), entry.id, out) == 0);
  const std::string text = out.str();
  // One column for the values, as wide as the longest key.
  CHECK_THAT(text, Catch::Matchers::StartsWith("id                            " + entry.id + "\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("\nkind                          alert\n"
                                             "rule                          alert\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "\nalert                         HighLoad (critical): CPU above 90% on "
                       "web-1\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("\nalert.label.alertname         HighLoad\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("\nalert.label.severity          critical\n"));
  CHECK_THAT(text,
             Catch::Matchers::Contains(
                 "\nalert.generator_url           http://prometheus:9090/graph?g0.expr=up\n"));
  CHECK_THAT(text,
             Catch::Matchers::Contains("\nalert.annotation.summary      CPU above 90% on web-1\n"));
  // One line per field: a line break, like every control character and byte that is not UTF-8,
  // is written as \xNN, so a value can neither start a line of its own nor drive the terminal.
  CHECK_THAT(text, Catch::Matchers::Contains("\nalert.annotation.description  load 12.5 for "
                                             "5m\\x0asee the \\x1b[2Jrunbook\n"));
  CHECK_THAT(text, Catch::Matchers::Contains(
                       "\nalert.label.instance          web-1\\x0aalert.label.forged  yes\\xff\n"));
  CHECK_THAT(text, !Catch::Matchers::Contains("\nalert.label.forged"));
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK_THAT(text, Catch::Matchers::Contains("\nwindow                        "));
}

TEST_CASE("flightrec incidents ID names what it cannot show", "[incidents]") {
  TempDir dir;
  std::ostringstream bad_id;
  CHECK(show_incident_command(dir.path(), "../etc/passwd", bad_id) == 1);
  CHECK(bad_id.str() == "not an incident id: \"../etc/passwd\"\n");
  std::ostringstream missing;
  CHECK(show_incident_command(dir.path(), "20251130T050001.000Z-cpu_busy", missing) == 1);
  CHECK(missing.str() ==
        "no incident 20251130T050001.000Z-cpu_busy in " + dir.path().string() + "\n");
  write_bytes(dir.path() / "20251130T050009.000Z-bad.flightrec", "garbage");
  std::ostringstream corrupt;
  CHECK(show_incident_command(dir.path(), "20251130T050009.000Z-bad", corrupt) == 1);
  CHECK_THAT(corrupt.str(), Catch::Matchers::StartsWith("corrupt: "));
  // A FIFO in the file's place is not opened (a read would wait for a writer), nor is a directory.
  const auto fifo = dir.path() / "20251130T050010.000Z-fifo.flightrec";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::ostringstream not_a_file;
  CHECK(show_incident_command(dir.path(), "20251130T050010.000Z-fifo", not_a_file) == 1);
  CHECK(not_a_file.str() == fifo.string() + " is a FIFO, not a regular file\n");
  std::filesystem::create_directory(dir.path() / "20251130T050011.000Z-dir.flightrec");
  std::ostringstream a_directory;
  CHECK(show_incident_command(dir.path(), "20251130T050011.000Z-dir", a_directory) == 1);
  CHECK_THAT(a_directory.str(), Catch::Matchers::EndsWith(" is a directory, not a regular file\n"));
  // Nor is a symbolic link followed, even to a good recording.
  const auto link = dir.path() / "20251130T050012.000Z-link.flightrec";
  std::filesystem::create_symlink(dir.path() / "20251130T050009.000Z-bad.flightrec", link);
  std::ostringstream a_link;
  CHECK(show_incident_command(dir.path(), "20251130T050012.000Z-link", a_link) == 1);
  CHECK(a_link.str() == link.string() + " is a symbolic link, not a regular file\n");
}

TEST_CASE("flightrec incidents ID writes a directory's name as printable text", "[incidents]") {
  TempDir parent;
  const auto dir = parent.path() / "in\x1b[1mcidents\xff";
  std::filesystem::create_directory(dir);
  std::ostringstream missing;
  CHECK(show_incident_command(dir, "20251130T050001.000Z-cpu_busy", missing) == 1);
  CHECK(missing.str() == "no incident 20251130T050001.000Z-cpu_busy in " + parent.path().string() +
                             "/in\\x1b[1mcidents\\xff\n");
}
