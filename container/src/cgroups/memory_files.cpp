#include "flightrec/container/cgroups/memory_files.h"

#include <array>

#include "keyed_lines.h"

namespace flightrec::container {
namespace {

using detail::KeyedField;

constexpr std::array<KeyedField<MemoryEvents>, 5> kEventFields{{
    {"low", &MemoryEvents::low},
    {"high", &MemoryEvents::high},
    {"max", &MemoryEvents::max},
    {"oom", &MemoryEvents::oom},
    {"oom_kill", &MemoryEvents::oom_kill},
}};

constexpr std::array<KeyedField<OomControl>, 3> kOomControlFields{{
    {"oom_kill_disable", &OomControl::oom_kill_disable},
    {"under_oom", &OomControl::under_oom},
    {"oom_kill", &OomControl::oom_kill},
}};

constexpr std::array<KeyedField<MemoryStat>, 8> kStatV2Fields{{
    {"anon", &MemoryStat::anon},
    {"file", &MemoryStat::file},
    {"kernel", &MemoryStat::kernel},
    {"slab", &MemoryStat::slab},
    {"shmem", &MemoryStat::shmem},
    {"workingset_refault_anon", &MemoryStat::workingset_refault_anon},
    {"workingset_refault_file", &MemoryStat::workingset_refault_file},
    {"pgmajfault", &MemoryStat::major_faults},
}};

constexpr std::array<KeyedField<MemoryStat>, 7> kStatV1Fields{{
    {"total_rss", &MemoryStat::anon},
    {"total_cache", &MemoryStat::file},
    {"total_shmem", &MemoryStat::shmem},
    {"total_swap", &MemoryStat::swap},
    {"total_workingset_refault_anon", &MemoryStat::workingset_refault_anon},
    {"total_workingset_refault_file", &MemoryStat::workingset_refault_file},
    {"total_pgmajfault", &MemoryStat::major_faults},
}};

}  // namespace

Result<MemoryEvents> parse_memory_events(std::string_view text) {
  return detail::parse_keyed(text, kEventFields, "memory.events");
}

Result<OomControl> parse_oom_control(std::string_view text) {
  return detail::parse_keyed(text, kOomControlFields, "memory.oom_control");
}

Result<MemoryStat> parse_memory_stat_v2(std::string_view text) {
  return detail::parse_keyed(text, kStatV2Fields, "v2 memory.stat");
}

Result<MemoryStat> parse_memory_stat_v1(std::string_view text) {
  return detail::parse_keyed(text, kStatV1Fields, "v1 memory.stat");
}

}  // namespace flightrec::container
