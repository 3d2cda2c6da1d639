#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <thread>
#include <vector>

#include "flightrec/incidents/incident_store.h"
#include "incident_fixture.h"

using namespace flightrec::incidents;
using namespace incident_test;

TEST_CASE("Readers list and look up incidents while the writer writes and retention deletes",
          "[incidents]") {
  TempDir dir;
  StderrCapture log;
  IncidentStore store({.dir = dir.path(), .max_count = 5});
  std::atomic<bool> done{false};
  std::atomic<size_t> inconsistent{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!done.load()) {
        const auto entries = store.list();
        if (entries.size() > 5) ++inconsistent;
        for (size_t i = 1; i < entries.size(); ++i) {
          if (entries[i - 1].id <= entries[i].id) ++inconsistent;  // a torn view of the index
        }
      }
    });
  }
  for (int i = 0; i < 40; ++i) write_incident(store, "r", i * 10);
  done = true;
  for (auto& reader : readers) reader.join();
  CHECK(inconsistent == 0);
  CHECK(store.list().size() == 5);
  CHECK(store.stats().written == 40);
  CHECK(store.stats().retention_deleted == 35);
  size_t files = 0;
  for (const auto& item : std::filesystem::directory_iterator(dir.path())) {
    if (item.path().extension() == ".flightrec") ++files;
  }
  CHECK(files == 5);
}
