#pragma once
// A source reads one kernel file (or a few related ones) at the sampler's rate.
// Contract: describe() once at set-up; then sample() every tick on the sampler thread, which must
// not allocate, throw or block beyond the read itself. Parsing lives in pure parse_* functions
// (see sources/*.h) so fixtures and fuzzers exercise it without a filesystem.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "flightrec/sampler/series.h"

namespace flightrec::sampler {

struct KernelTickBatch;  // kernel_ticks.h

enum class SampleStatus : uint8_t {
  ok,
  partial,  // some values absent (e.g. a malformed line); the rest are good
  failed,   // nothing read this tick; every value kAbsent
};

// How much of a source's values a kernel tick gives (sampler.backend: ebpf, kernel_ticks.h): all of
// them (the sampler never reads its file), some (the file is still read at the source's rate for
// the rest) or none.
enum class KernelTickShare : uint8_t { none, some, all };

class Source {
 public:
  virtual ~Source() = default;

  // Short stable id used in config, logs and self-metrics: "stat", "meminfo", "diskstats", ...
  [[nodiscard]] virtual std::string_view name() const noexcept = 0;

  // Appends this source's series, in the order sample() writes them.
  virtual void describe(Schema& out) const = 0;

  // Fills `out` (exactly as many values as describe() appended), kAbsent where unknown.
  virtual SampleStatus sample(std::span<int64_t> out) noexcept = 0;

  [[nodiscard]] virtual KernelTickShare kernel_tick_share() const noexcept {
    return KernelTickShare::none;
  }
  // Writes into `out` (the same values sample() writes) those that tick number `tick` of `batch`
  // gives, leaving the others as they are. Called only when kernel_tick_share() is not none.
  virtual void take_kernel_tick(const KernelTickBatch& /*batch*/, size_t /*tick*/,
                                std::span<int64_t> /*out*/) noexcept {}
};

// Thrown by a source factory when an optional file is not there (no PSI, no cgroup v2): the
// registry reports it once and goes on without the source.
class SourceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace flightrec::sampler
