#pragma once
// A source reads one kernel file (or a few related ones) at the sampler's rate.
// Contract: describe() once at set-up; then sample() every tick on the sampler thread, which must
// not allocate, throw or block beyond the read itself. Parsing lives in pure parse_* functions
// (see sources/*.h) so fixtures and fuzzers exercise it without a filesystem.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "flightrec/sampler/series.h"

namespace flightrec::sampler {

enum class SampleStatus : uint8_t {
  ok,
  partial,  // some values absent (e.g. a malformed line); the rest are good
  failed,   // nothing read this tick; every value kAbsent
};

class Source {
 public:
  virtual ~Source() = default;

  // Short stable id used in config, logs and self-metrics: "stat", "meminfo", "diskstats", ...
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  // Appends this source's series, in the order sample() writes them.
  virtual void describe(Schema& out) const = 0;

  // Fills `out` (exactly as many values as describe() appended), kAbsent where unknown.
  virtual SampleStatus sample(std::span<int64_t> out) noexcept = 0;
};

// Thrown by a source factory when an optional file is not there (no PSI, no cgroup v2): the
// registry reports it once and goes on without the source.
class SourceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace flightrec::sampler
