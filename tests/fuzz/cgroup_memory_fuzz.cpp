// Feeds arbitrary bytes to the container tier's memory.events, memory.oom_control and v1/v2
// memory.stat parsers: the values read are counts or kAbsent, and a failure says why on one line.
// Seed corpus: the memory files of tests/fixtures/cgroup/.
#include <cstddef>
#include <cstdint>

#include "flightrec/container/cgroups/memory_files.h"
#include "fuzz_check.h"

namespace {
void check_stat(const flightrec::Result<flightrec::container::MemoryStat>& stat) {
  flightrec::fuzz::check_error(stat);
  if (!stat) return;
  flightrec::fuzz::check_values(
      {{stat->anon, stat->file, stat->kernel, stat->slab, stat->shmem, stat->swap,
        stat->workingset_refault_anon, stat->workingset_refault_file, stat->major_faults}});
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::container;
  const std::string_view text = flightrec::fuzz::as_text(data, size);
  const auto events = parse_memory_events(text);
  flightrec::fuzz::check_error(events);
  if (events) {
    flightrec::fuzz::check_values(
        {{events->low, events->high, events->max, events->oom, events->oom_kill}});
  }
  const auto control = parse_oom_control(text);
  flightrec::fuzz::check_error(control);
  if (control) {
    flightrec::fuzz::check_values(
        {{control->oom_kill_disable, control->under_oom, control->oom_kill}});
  }
  check_stat(parse_memory_stat_v1(text));
  check_stat(parse_memory_stat_v2(text));
  return 0;
}
