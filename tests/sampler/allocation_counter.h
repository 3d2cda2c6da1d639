#pragma once
// Counts heap allocations made by the current thread while a guard is alive, through a replaced
// global operator new (allocation_counter.cpp). Lets a test prove a hot loop never allocates.
#include <cstddef>

namespace flightrec::testing {

class CountAllocations {
 public:
  CountAllocations();
  ~CountAllocations();
  CountAllocations(const CountAllocations&) = delete;
  CountAllocations& operator=(const CountAllocations&) = delete;
  [[nodiscard]] size_t count() const;
};

}  // namespace flightrec::testing
