// The start-up scan on the store's own thread (verify_in_background): the store lists, writes,
// serves and applies retention while stored files are still unverified, and the quarantine and
// retention guarantees of the scan hold as they did when it ran in the constructor.
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <future>
#include <string>

#include "curl.h"
#include "flightrec/http/server.h"
#include "flightrec/incidents/handlers.h"
#include "flightrec/incidents/incident_file.h"
#include "flightrec/incidents/incident_store.h"
#include "flightrec/incidents/routes.h"
#include "flightrec/incidents/stored_file.h"
#include "incident_fixture.h"

using namespace flightrec;
using namespace flightrec::incidents;
using namespace incident_test;
namespace fs = std::filesystem;

namespace {

// Holds the scan before it verifies its first file until release() (or the end of the test).
class ScanGate {
 public:
  ScanGate() : opened_(open_.get_future().share()) {}
  ScanGate(const ScanGate&) = delete;
  ScanGate& operator=(const ScanGate&) = delete;
  ~ScanGate() { release(); }

  std::function<void(const std::string&)> hook() {
    return [future = opened_](const std::string&) { future.wait(); };
  }
  void release() {
    if (!released_) open_.set_value();
    released_ = true;
  }

 private:
  std::promise<void> open_;
  std::shared_future<void> opened_;
  bool released_ = false;
};

// Writes incidents "<rule>" at the given offsets with a synchronous store; returns their files.
std::vector<fs::path> seed(const fs::path& dir,
                           const std::vector<std::pair<std::string, int>>& at) {
  IncidentStore store({.dir = dir, .max_count = 1000});
  std::vector<fs::path> files;
  for (const auto& [rule, offset_ms] : at) {
    const auto entry = write_incident(store, rule, offset_ms);
    REQUIRE(entry.status == IncidentStatus::written);
    files.push_back(dir / (entry.id + ".flightrec"));
  }
  return files;
}

void tear(const fs::path& file) {
  const std::string bytes = read_bytes(file);
  write_bytes(file, bytes.substr(0, bytes.size() - 40));
}

// A store verifying in the background, its scan held before the first file until
// gate.release(); released before the store is destroyed, so that a failed check cannot hang it.
struct HeldScan {
  explicit HeldScan(const fs::path& dir, uint64_t max_count = 100)
      : store({.dir = dir,
               .max_count = max_count,
               .fallback_dir = dir / "fallback-unused",
               .verify_in_background = true,
               .before_verify = gate.hook()}) {}
  HeldScan(const HeldScan&) = delete;
  HeldScan& operator=(const HeldScan&) = delete;
  ~HeldScan() { gate.release(); }

  ScanGate gate;
  IncidentStore store;
};

size_t count_status(const std::vector<IncidentEntry>& entries, IncidentStatus status) {
  return static_cast<size_t>(std::count_if(entries.begin(), entries.end(),
                                           [&](const auto& e) { return e.status == status; }));
}

}  // namespace

TEST_CASE("While stored incidents are verified the store lists, writes and serves", "[incidents]") {
  TempDir dir;
  const auto files = seed(dir.path(), {{"torn", 0}, {"a", 1000}, {"b", 2000}});
  tear(files[0]);
  const fs::path temporary = files[1].string() + ".tmp.Ab12Cd";
  write_bytes(temporary, "half a write");

  StderrCapture log;
  HeldScan held(dir.path());
  auto& [gate, store] = held;
  // Names and sizes are known at once; the leftover temporary is gone already.
  CHECK_FALSE(fs::exists(temporary));
  auto entries = store.list();
  REQUIRE(entries.size() == 3);
  CHECK(count_status(entries, IncidentStatus::verifying) == 3);
  CHECK(entries[2].bytes == fs::file_size(files[0]));
  const auto progress = store.scan_progress();
  CHECK(progress.running);
  CHECK(progress.verified == 0);
  CHECK(progress.total == 3);
  CHECK(store.stats().unverified == 3);
  CHECK(open_stored_file(store, files[1].stem().string()).status == 503);

  // A new incident is written, indexed and served while the scan is held.
  const auto fresh = write_incident(store, "fresh", 5000);
  REQUIRE(fresh.status == IncidentStatus::written);
  entries = store.list();
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].id == fresh.id);
  CHECK(entries[0].status == IncidentStatus::written);
  CHECK(open_stored_file(store, fresh.id).ok());

  gate.release();
  store.wait_for_scan();
  entries = store.list();
  REQUIRE(entries.size() == 3);  // the torn one is quarantined, not indexed
  CHECK(count_status(entries, IncidentStatus::written) == 3);
  CHECK(entries[0].id == fresh.id);
  CHECK(entries[1].incident.rule == "b");
  CHECK_FALSE(fs::exists(files[0]));
  CHECK(fs::exists(files[0].string() + ".corrupt"));
  CHECK(store.stats().quarantined == 1);
  CHECK(store.stats().unverified == 0);
  CHECK(store.scan_progress().verified == 3);
  CHECK_FALSE(store.scan_progress().running);
  CHECK(open_stored_file(store, files[1].stem().string()).ok());
  CHECK(log.count("msg=\"incident scan started\" files=3") == 1);
  CHECK(log.count("msg=\"incident scan finished\" files=3 verified=3 indexed=3 quarantined=1") ==
        1);
}

TEST_CASE(
    "Retention during the scan counts unverified files and quarantines, not deletes, a "
    "corrupt one",
    "[incidents]") {
  TempDir dir;
  const auto files = seed(dir.path(), {{"torn", 0}, {"b", 1000}, {"c", 2000}});
  tear(files[0]);

  StderrCapture log;
  HeldScan held(dir.path(), 3);
  auto& [gate, store] = held;
  // 4 on disk > 3: the oldest is verified first, found torn, and quarantined: that is enough.
  const auto d = write_incident(store, "d", 3000);
  CHECK(fs::exists(files[0].string() + ".corrupt"));
  CHECK(store.stats().quarantined == 1);
  CHECK(store.stats().retention_deleted == 0);
  // 4 again: the oldest, valid, is deleted although the scan has not reached it.
  const auto e = write_incident(store, "e", 4000);
  CHECK_FALSE(fs::exists(files[1]));
  CHECK(store.stats().retention_deleted == 1);
  CHECK(store.list().size() == 3);
  CHECK(store.scan_progress().running);

  gate.release();
  store.wait_for_scan();
  const auto entries = store.list();
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].id == e.id);
  CHECK(entries[1].id == d.id);
  CHECK(entries[2].id == files[2].stem().string());
  CHECK(count_status(entries, IncidentStatus::written) == 3);
  CHECK(store.stats().retention_deleted == 1);
}

TEST_CASE("GET /incidents shows unverified files and the scan's progress in a header",
          "[incidents]") {
  TempDir dir;
  const auto files = seed(dir.path(), {{"a", 0}, {"b", 1000}});
  StderrCapture log;
  HeldScan held(dir.path());
  auto& [gate, store] = held;
  http::Server server{{.listen_address = "127.0.0.1:0"}, incidents_routes(store)};
  const std::string url = server.url() + "incidents";

  std::string answer = flightrec::testing::curl("-i " + url, 5);
  CHECK_THAT(answer, Catch::Matchers::Contains("Flightrec-Incident-Scan: running; verified=0; "
                                               "total=2"));
  CHECK_THAT(answer,
             Catch::Matchers::Contains("{\"id\":\"" + files[1].stem().string() +
                                       "\",\"bytes\":" + std::to_string(fs::file_size(files[1])) +
                                       ",\"status\":\"verifying\"}"));
  CHECK_THAT(flightrec::testing::curl("-i " + url + "/" + files[0].stem().string(), 5),
             Catch::Matchers::Contains("503"));

  gate.release();
  store.wait_for_scan();
  answer = flightrec::testing::curl("-i " + url, 5);
  CHECK_THAT(answer,
             Catch::Matchers::Contains("Flightrec-Incident-Scan: done; verified=2; total=2"));
  CHECK_THAT(answer, !Catch::Matchers::Contains("verifying"));
}

TEST_CASE("A check cancelled by a stopping store says so rather than judging the file",
          "[incidents]") {
  TempDir dir;
  const auto files = seed(dir.path(), {{"a", 0}});
  std::atomic<bool> cancel{false};
  CHECK(check_incident_file(files[0], &cancel).ok());
  cancel = true;
  const auto check = check_incident_file(files[0], &cancel);
  CHECK(check.error == "check cancelled");
}
