// EventsWatch on real files: a modification is reported once, by the id its watch was given,
// and a file never written, removed or no longer watched reports nothing.
#include "flightrec/container/cgroups/events_watch.h"

#include <catch2/catch.hpp>

#include "temp_dir.h"

using flightrec::container::EventsWatch;
using flightrec::testing::TempDir;

TEST_CASE("EventsWatch reports the files modified since it was last asked", "[container][watch]") {
  const TempDir dir;
  const auto a = dir.write("a/memory.events", "max 0\n");
  const auto b = dir.write("b/memory.events", "max 0\n");
  auto watch = EventsWatch::create();
  REQUIRE(watch.ok());
  auto watch_a = watch->add(a);
  auto watch_b = watch->add(b);
  REQUIRE(watch_a.ok());
  REQUIRE(watch_b.ok());
  CHECK(watch->take_changed().empty());

  // Two writes to A before it is asked: A once; B untouched.
  dir.write("a/memory.events", "max 1\n");
  dir.write("a/memory.events", "max 2\n");
  CHECK(watch->take_changed() == std::vector<int>{*watch_a});
  CHECK(watch->take_changed().empty());

  // No longer watched: its writes say nothing; the other's still do.
  watch->remove(*watch_a);
  dir.write("a/memory.events", "max 3\n");
  dir.write("b/memory.events", "max 1\n");
  CHECK(watch->take_changed() == std::vector<int>{*watch_b});
  watch->remove(*watch_a);  // twice: ignored
}

TEST_CASE("EventsWatch names a file it cannot watch", "[container][watch]") {
  const TempDir dir;
  auto watch = EventsWatch::create();
  REQUIRE(watch.ok());
  const auto missing = dir.path() / "gone/memory.events";
  const auto added = watch->add(missing);
  REQUIRE_FALSE(added.ok());
  CHECK_THAT(added.error(), Catch::StartsWith("cannot watch " + missing.string() + ": "));
}
