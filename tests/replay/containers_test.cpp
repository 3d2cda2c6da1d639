// The Containers tab: rates at the cursor, a container that comes and goes, the period strip from
// episodes and from cpu.stat, Enter narrowing the Processes tab, the screen and batch output.
#include <catch2/catch.hpp>

#include "container_fixture.h"
#include "flightrec/replay/batch.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/screen.h"
#include "flightrec/replay/session.h"
#include "replay_fixture.h"

using namespace flightrec::replay;
using namespace flightrec::replay::testing;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using flightrec::container::strip_char;
using flightrec::container::strip_summary;
using flightrec::container::strip_text;
using flightrec::container::StripSource;

namespace {

constexpr int64_t kSecond = 1'000'000'000;

size_t cursor_at(const Model& model, int64_t offset_ns) {
  return model.timeline().at_or_before(kStartNs + offset_ns);
}

const ContainerRates* find(const ContainersAt& at, const std::string& name) {
  for (const auto& row : at.rows) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

const Cell& cell(const Table& table, size_t row, std::string_view column) {
  return table.rows.at(row).cells.at(*column_named(table, column));
}

std::string screen_text(const Session& session, size_t width, size_t height) {
  std::string text;
  for (const auto& line : render_screen(session, width, height)) text += line.text + "\n";
  return text;
}

std::vector<int32_t> pids(const Table& table) {
  std::vector<int32_t> out;
  for (const auto& row : table.rows) out.push_back(row.pid);
  return out;
}

}  // namespace

TEST_CASE("containerRatesCoverTheInterval", "[replay][containers]") {
  const Model model(container_fixture(), fixture_users());
  const auto at = model.containers(model.timeline().size() - 1, kSecond);
  REQUIRE(at.frame != nullptr);
  REQUIRE(at.previous != nullptr);
  CHECK(at.previous->time_unix_ns == kStartNs + 2 * kSecond);
  REQUIRE(at.rows.size() == 2);  // the batch job has gone
  const auto* checkout = find(at, "prod/checkout-7f9c/app");
  REQUIRE(checkout != nullptr);
  CHECK_THAT(*checkout->cpu, WithinAbs(0.2, 1e-9));
  CHECK_THAT(*checkout->quota, WithinAbs(0.2, 1e-9));
  CHECK_THAT(*checkout->throttled_ratio, WithinAbs(1.0, 1e-9));
  CHECK_THAT(*checkout->throttled_ms, WithinAbs(80.0, 1e-9));
  CHECK(*checkout->memory_bytes == 240.0 * kMiB);
  CHECK(*checkout->limit_bytes == 256.0 * kMiB);
  CHECK(*checkout->high_bytes == 240.0 * kMiB);
  CHECK_THAT(*checkout->memory_fill, WithinAbs(240.0 / 256.0, 1e-9));
  CHECK(*checkout->events_high == 20);
  CHECK(*checkout->events_max == 6);
  CHECK(*checkout->events_oom_kill == 0);
  CHECK_THAT(*checkout->cpu_pressure, WithinAbs(0.8, 1e-9));
  CHECK(*checkout->memory_pressure == 0);
  CHECK_FALSE(checkout->io_pressure.has_value());  // not read
  CHECK_THAT(*checkout->read_bps, WithinAbs(1024.0 * 1024.0, 1e-6));
  CHECK(*checkout->tasks == 3);

  const auto* web = find(at, "web");
  REQUIRE(web != nullptr);
  CHECK_THAT(*web->cpu, WithinAbs(0.04, 1e-9));
  CHECK_FALSE(web->quota.has_value());
  CHECK_FALSE(web->limit_bytes.has_value());
  CHECK_FALSE(web->memory_fill.has_value());
  CHECK_FALSE(web->throttled_ratio.has_value());  // no quota: nothing throttles it
}

TEST_CASE("aContainerThatComesAndGoesHasRatesOnlyWhileBothFramesHoldIt", "[replay][containers]") {
  const Model model(container_fixture(), fixture_users());
  // 1 s: the job's first frame; the frame a second before does not hold it.
  auto at = model.containers(cursor_at(model, kSecond), kSecond);
  const auto* job = find(at, "batch-job");
  REQUIRE(job != nullptr);
  CHECK_FALSE(job->cpu.has_value());
  CHECK(*job->memory_bytes == 50.0 * kMiB);  // levels need no earlier frame
  // 1.5 s over 500 ms: the frame of 1 s holds it.
  at = model.containers(cursor_at(model, 1'500'000'000), 500'000'000);
  job = find(at, "batch-job");
  REQUIRE(job != nullptr);
  CHECK_THAT(*job->cpu, WithinAbs(0.5, 1e-9));
  // 2.5 s: gone.
  at = model.containers(cursor_at(model, 2'500'000'000), kSecond);
  CHECK(find(at, "batch-job") == nullptr);
  CHECK(at.rows.size() == 2);
}

TEST_CASE("aContainerMadeAgainUnderTheSamePathGetsNoRateFromTheOldOne", "[replay][containers]") {
  auto data = container_fixture();
  // From 2.5 s the web container's path holds another container (a new id), its counters anew.
  for (size_t k = 5; k < data.container_frames.size(); ++k) {
    for (auto& row : data.container_frames[k].containers) {
      if (row.name != "web") continue;
      row.id = std::string(64, 'e');
      row.stats.cpu.usage_us = 1000;
    }
  }
  const Model model(std::move(data), fixture_users());
  const auto at = model.containers(model.timeline().size() - 1, kSecond);
  const auto* web = find(at, "web");
  REQUIRE(web != nullptr);
  CHECK_FALSE(web->cpu.has_value());
}

TEST_CASE("containersNameThemselvesByPodByNameElseByShortId", "[replay][containers]") {
  flightrec::container::ContainerRow row;
  row.id = std::string(64, 'f');
  CHECK(container_name(row) == "ffffffffffff");
  row.id = "nginx.service";
  CHECK(container_name(row) == "nginx.service");
  row.name = "web\x1b[2J";
  CHECK(container_name(row) == "web?[2J");  // the terminal's control bytes never reach it
  row.pod_namespace = "prod";
  row.pod = "checkout-7f9c";
  CHECK(container_name(row) == "prod/checkout-7f9c");
  row.container = "app";
  CHECK(container_name(row) == "prod/checkout-7f9c/app");
}

TEST_CASE("theContainersTabSortsLikeTheProcessesTab", "[replay][containers][table]") {
  const Model model(container_fixture(), fixture_users());
  const size_t end = model.timeline().size() - 1;
  Table table = model.table(end, kSecond, Tab::containers, {});
  REQUIRE(table.rows.size() == 2);
  CHECK(cell(table, 0, "NAME").text == "prod/checkout-7f9c/app");  // CPU% biggest first
  CHECK(cell(table, 0, "CPU%").text == "20.0");
  CHECK(cell(table, 0, "QUOTA%").text == "20.0");
  CHECK(cell(table, 0, "THR%").text == "100.0");
  CHECK(cell(table, 0, "THRms").text == "80.0");
  CHECK(cell(table, 0, "MEM").text == "240M");
  CHECK(cell(table, 0, "LIMIT").text == "256M");
  CHECK(cell(table, 0, "MEM%").text == "93.8");
  CHECK(cell(table, 0, "EV H/M/K").text == "20/6/0");
  CHECK(cell(table, 0, "PSI C/M/I").text == "80.0/0.0/-");
  CHECK(cell(table, 0, "ID").text == "aaaaaaaaaaaa");
  CHECK(cell(table, 0, "ID").full_text == checkout_id());
  CHECK(cell(table, 1, "NAME").text == "web");
  CHECK(cell(table, 1, "QUOTA%").text == "-");
  CHECK(table.rows[0].key == checkout_path());

  table = model.table(end, kSecond, Tab::containers,
                      {column_named(table, "NAME"), true, "", false, std::nullopt});
  CHECK(cell(table, 0, "NAME").text == "web");  // names Z to A
  table = model.table(end, kSecond, Tab::containers,
                      {std::nullopt, false, "nginx", false, std::nullopt});
  REQUIRE(table.rows.size() == 1);  // the filter sees the image
  CHECK(cell(table, 0, "NAME").text == "web");
}

TEST_CASE("theStripComesFromTheEpisodes", "[replay][containers][strip]") {
  const Model model(container_fixture(), fixture_users());
  // At 2 s the frame of 2.5 s has reported the episode that ended with the period before.
  auto strip = model.strip(cursor_at(model, 2 * kSecond), checkout_path(), 50);
  CHECK(strip.source == StripSource::episodes);
  CHECK(strip.period_ns == kCfsPeriodNs);
  CHECK(strip_text(strip) == "..........8888888888");
  CHECK(strip.cells.front().start_ns == kStartNs);
  // Its own episode, and the 50 µs the refill that ended the one before came late.
  CHECK(strip.cells.back().throttled_ns == kThrottledPerPeriodUs * 1000 + 50'000);
  CHECK(strip_summary(strip) == "10 of 20 periods throttled, 80ms at most in one");
  // At the end no frame follows: the newest period, whose episode the next frame would report, is
  // left out rather than shown unthrottled.
  strip = model.strip(model.timeline().size() - 1, checkout_path(), 50);
  CHECK(strip_text(strip) == "..........8888888888888888888");
  // At most the cells asked for, the newest.
  strip = model.strip(cursor_at(model, 2 * kSecond), checkout_path(), 4);
  CHECK(strip_text(strip) == "8888");
}

TEST_CASE("withoutEpisodesTheStripComesFromCpuStatReads", "[replay][containers][strip]") {
  const Model model(container_fixture(false), fixture_users());
  const auto strip = model.strip(model.timeline().size() - 1, checkout_path(), 50);
  CHECK(strip.source == StripSource::cpu_stat);
  CHECK(strip_text(strip) == "..........88888888888888888888");
  for (const auto& cell : strip.cells) CHECK(cell.periods == 1);
  CHECK(strip_summary(strip) == "20 of 30 reads (30 periods) throttled, 80ms at most in one");
}

TEST_CASE("aContainerWithoutAQuotaHasNoStrip", "[replay][containers][strip]") {
  const Model model(container_fixture(), fixture_users());
  const auto at = model.containers(model.timeline().size() - 1, kSecond);
  const auto* web = find(at, "web");
  REQUIRE(web != nullptr);
  CHECK(model.strip(model.timeline().size() - 1, web->row->path, 50).source == StripSource::none);
  CHECK(model.strip(model.timeline().size() - 1, "/no/such/cgroup", 50).cells.empty());
}

TEST_CASE("stripCharactersSayHowMuchOfAPeriodWasThrottled", "[replay][containers][strip]") {
  const int64_t period = kCfsPeriodNs;
  CHECK(strip_char({.throttled_ns = 0, .throttled = false}, period) == '.');
  CHECK(strip_char({.throttled_ns = 1'000'000, .throttled = true}, period) == '1');  // at least 1
  CHECK(strip_char({.throttled_ns = 54'000'000, .throttled = true}, period) == '5');
  CHECK(strip_char({.throttled_ns = 96'000'000, .throttled = true}, period) == '#');
  CHECK(strip_char({.throttled_ns = 150'000'000, .throttled = true}, period) == '#');  // 2 CPUs
  CHECK(strip_char({.periods = 4, .throttled_ns = 200'000'000, .throttled = true}, period) == '5');
}

TEST_CASE("enterNarrowsTheProcessesTabToTheSelectedContainer", "[replay][containers][session]") {
  const Model model(container_fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::processes, kSecond);
  REQUIRE(session.table().rows.size() == 7);
  session.handle_key(keys::kEnter);
  CHECK_THAT(session.message(), Contains("Containers tab"));
  session.handle_key('C');
  REQUIRE(session.tab() == Tab::containers);
  session.handle_key(keys::kEnter);  // the first row: the checkout container
  CHECK(session.tab() == Tab::processes);
  REQUIRE(session.container().has_value());
  CHECK(session.container()->name == "prod/checkout-7f9c/app");
  CHECK(pids(session.table()) == std::vector<int32_t>{202});
  CHECK_THAT(session.message(), Contains("processes of container prod/checkout-7f9c/app"));
  CHECK_THAT(render_screen(session, 80, 24)[7].text,
             Contains("Only the processes of container prod/checkout-7f9c/app (x: all)"));
  // It lasts while the cursor moves and the tabs change.
  session.handle_key('{');
  session.handle_key(keys::kTab);
  session.handle_key(keys::kBackTab);
  CHECK(pids(session.table()) == std::vector<int32_t>{202});
  session.handle_key('x');
  CHECK_FALSE(session.container().has_value());
  CHECK(session.table().rows.size() == 7);
  session.handle_key('x');
  CHECK_THAT(session.message(), Contains("every process already"));
}

TEST_CASE("aServiceContainerNarrowsByItsCgroupPath", "[replay][containers][table]") {
  Row process;
  process.cgroup = "/system.slice/nginx.service/worker";
  const ContainerScope service{
      .path = "/system.slice/nginx.service", .id = "nginx.service", .name = "nginx.service"};
  CHECK(in_container(process, service));
  process.cgroup = "/system.slice/nginx.service2";
  CHECK_FALSE(in_container(process, service));
  process.container_id = "nginx.service";
  CHECK(in_container(process, service));
}

TEST_CASE("theContainerSelectionFollowsItsContainerInTime", "[replay][containers][session]") {
  const Model model(container_fixture(), fixture_users());
  Session session(model, cursor_at(model, 1'500'000'000), Tab::containers, 500'000'000);
  // At 1.5 s the batch job (half a core) leads; select the checkout container below it.
  REQUIRE(session.table().rows.size() == 3);
  CHECK(cell(session.table(), 0, "NAME").text == "batch-job");
  session.handle_key(keys::kDown);
  CHECK(cell(session.table(), session.selected(), "NAME").text == "prod/checkout-7f9c/app");
  session.handle_key(keys::kEnd);  // the job is gone, the checkout container leads
  CHECK(cell(session.table(), session.selected(), "NAME").text == "prod/checkout-7f9c/app");
}

TEST_CASE("theScreenShowsTheSelectedContainersStrip", "[replay][containers][screen]") {
  const Model model(container_fixture(), fixture_users());
  Session session(model, model.timeline().size() - 1, Tab::containers, kSecond);
  const auto lines = render_screen(session, 80, 24);
  REQUIRE(lines.size() == 24);
  CHECK_THAT(lines[6].text, Contains("[Containers]"));
  CHECK_THAT(lines[8].text, Contains("prod/checkout-7f9c/app"));
  CHECK_THAT(lines[21].text,
             Contains("Periods of prod/checkout-7f9c/app: 19 of 29 periods throttled"));
  CHECK(lines[22].text.starts_with("[..........8888888888888888888]"));
  for (const auto& line : lines) CHECK(line.text.size() <= 80);
  session.handle_key(keys::kDown);
  CHECK_THAT(screen_text(session, 80, 24), Contains("Periods of web: no CPU quota"));
}

TEST_CASE("aRecordingWithoutContainerFramesSaysSo", "[replay][containers]") {
  const Model model(fixture(), fixture_users());
  CHECK_FALSE(model.has_containers());
  Session session(model, model.timeline().size() - 1, Tab::containers, kSecond);
  CHECK(session.table().rows.empty());
  CHECK_THAT(screen_text(session, 80, 24), Contains("no container frames in this recording"));
  session.handle_key(keys::kEnter);
  CHECK(session.message() == "no container frames in this recording");
  const BatchView view{model.timeline().size() - 1, kSecond, Tab::containers, {}};
  CHECK_THAT(render_batch(model, view, BatchFormat::text),
             Contains("[Containers] 0 rows\nno container frames in this recording\n"));
  CHECK_THAT(render_batch(model, view, BatchFormat::json),
             Contains("\"note\": \"no container frames in this recording\""));
}

TEST_CASE("episodesThatMissAThrottledGroupGiveWayToItsCpuStat", "[replay][containers][strip]") {
  // eBPF ran, but no episode of the group came while its nr_throttled grew (its reports lost).
  auto data = container_fixture();
  for (auto& frame : data.container_frames) frame.episodes.clear();
  const Model model(std::move(data), fixture_users());
  const auto strip = model.strip(model.timeline().size() - 1, checkout_path(), 50);
  CHECK(strip.source == StripSource::cpu_stat);
  CHECK(strip_text(strip) == "..........88888888888888888888");
  // Before its throttling began, no episode is what cpu.stat says too.
  CHECK(model.strip(cursor_at(model, 500'000'000), checkout_path(), 50).source ==
        StripSource::episodes);
}

TEST_CASE("processRowsNameTheirContainerFromTheNearestContainerFrame",
          "[replay][containers][table]") {
  ReplayData data = container_fixture();
  Arrangement by_pid;
  by_pid.sort_column = 0;
  const auto container_of = [&by_pid](const Model& model, int64_t offset_ns, int32_t pid) {
    const Table table = model.table(cursor_at(model, offset_ns), kSecond, Tab::processes, by_pid);
    for (const Row& row : table.rows) {
      if (row.pid == pid) return row.cells.at(*column_named(table, "CONTAINER")).text;
    }
    return std::string("no such process");
  };
  {
    const Model model(data, fixture_users());
    CHECK(container_of(model, 3 * kSecond, 202) == "prod/checkout-7f9c/app");
    CHECK(container_of(model, 3 * kSecond, 300) == "web");
    CHECK(container_of(model, 3 * kSecond, 1) == "-");  // the host's
    // The batch job's container is in the frames of 1 s to 2 s only: its process, at 1.25 s, is
    // named from the frame of 1 s, the nearer (as near as 1.5 s's: the earlier).
    CHECK(container_of(model, 1'250'000'000, 203) == "batch-job");
    // Search and filter see the container's name.
    Arrangement filtered = by_pid;
    filtered.filter = "checkout-7f9c";
    CHECK(pids(model.table(model.timeline().size() - 1, kSecond, Tab::processes, filtered)) ==
          std::vector<int32_t>{202});
  }
  // Without the frame at 0 s, the processes at 0.25 s take their names from the frame after.
  data.container_frames.erase(data.container_frames.begin());
  const Model later(data, fixture_users());
  CHECK(container_of(later, 250'000'000, 202) == "prod/checkout-7f9c/app");
  // Without any container frame every process is the host's.
  data.container_frames.clear();
  const Model none(data, fixture_users());
  CHECK(container_of(none, 3 * kSecond, 202) == "-");
}
