#include <catch2/catch.hpp>
#include <string>

#include "allocation_counter.h"
#include "flightrec/sampler/sources/key_slots.h"

using flightrec::config::KeyFilter;
using flightrec::sampler::KeySlots;

TEST_CASE("KeySlots binds accepted names to slots in order of first sight", "[sources][keys]") {
  KeySlots keys("test", KeyFilter{}, 4);

  CHECK(keys.slot_for("sda", 0) == 0);
  CHECK(keys.slot_for("sdb", 1) == 1);
  CHECK(keys.slot_for("sdb", 0) == 1);  // same name on another row keeps its slot
  CHECK(keys.slot_for("sda", 7) == 0);
  CHECK(keys.table().bound() == 2);
  CHECK(keys.table().name(1) == "sdb");
}

TEST_CASE("KeySlots applies the include and exclude filters", "[sources][keys]") {
  KeySlots keys("test", KeyFilter{"^(sd|nvme)", "p?[0-9]+$"}, 4);

  CHECK(keys.slot_for("loop0", 0) == -1);      // not included
  CHECK(keys.slot_for("sda1", 1) == -1);       // excluded
  CHECK(keys.slot_for("nvme0n1p2", 2) == -1);  // excluded
  CHECK(keys.slot_for("sda", 3) == 0);
  CHECK(keys.slot_for("nvme0n1", 4) == -1);  // excluded: ends in a digit
  CHECK(keys.table().bound() == 1);
  CHECK(keys.dropped_keys() == 0);  // filtered names are not "dropped"
}

TEST_CASE("KeySlots counts each accepted name that found the table full once", "[sources][keys]") {
  KeySlots keys("test", KeyFilter{}, 2);
  for (int read = 0; read < 3; ++read) {
    CHECK(keys.slot_for("eth0", 0) == 0);
    CHECK(keys.slot_for("eth1", 1) == 1);
    CHECK(keys.slot_for("eth2", 2) == -1);
    CHECK(keys.slot_for("eth3", 3) == -1);
  }
  CHECK(keys.dropped_keys() == 2);
}

TEST_CASE("KeySlots refuses empty and over-long names", "[sources][keys]") {
  KeySlots keys("test", KeyFilter{}, 2);
  CHECK(keys.slot_for("", 0) == -1);
  CHECK(keys.slot_for(std::string(flightrec::sampler::SlotTable::kMaxNameLength + 1, 'x'), 1) ==
        -1);
  CHECK(keys.table().bound() == 0);
}

TEST_CASE("KeySlots neither allocates nor filters again for names it has seen", "[sources][keys]") {
  KeySlots keys("test", KeyFilter{"", "^loop"}, 2);
  const char* names[] = {"loop0", "sda", "loop1", "sdb", "sdc"};
  for (size_t row = 0; row < 5; ++row) (void)keys.slot_for(names[row], row);

  size_t allocated = 0;
  {
    flightrec::testing::CountAllocations allocations;
    for (size_t row = 0; row < 5; ++row) (void)keys.slot_for(names[row], row);
    (void)keys.slot_for("sda", 9);  // a row with no hint: found by search, still no allocation
    allocated = allocations.count();
  }
  CHECK(allocated == 0);
}

TEST_CASE("KeySlots names the source and the regex that does not compile", "[sources][keys]") {
  CHECK_THROWS_WITH(KeySlots("diskstats", KeyFilter{"", "(unclosed"}, 2),
                    Catch::Matchers::Contains("diskstats: bad exclude regex \"(unclosed\""));
}
