#pragma once
// The signals a trigger rule may name about containers (docs/TRIGGERS.md, "Container rules"):
// their names and the labels their selectors may match. A rule whose signal starts with
// "container_" is a container rule: the config checks its name and labels here, so a typo is a
// load error naming the key, and the trigger component evaluates it on the container tier's
// reads instead of the system frames. One table, which both read.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/common/enum_names.h"
#include "flightrec/common/result.h"
#include "flightrec/config/config.h"

namespace flightrec::config {

enum class ContainerSignal : uint8_t {
  cpu_throttled_ratio,          // throttled share of the newest CFS period (fast tier's rate)
  cpu_throttled_periods_ratio,  // nr_throttled / nr_periods over the last slow round
  cpu_usage_cores,              // CPU seconds per second over the last slow round
  memory_usage_bytes,           // memory.current / memory.usage_in_bytes
  memory_fill,                  // usage / limit (no value without a limit)
  memory_events_low_increase,   // memory.events' counters: increase over the last slow round
  memory_events_high_increase,
  memory_events_max_increase,
  memory_events_oom_increase,
  memory_events_oom_kill_increase,
};
inline constexpr EnumName<ContainerSignal> kContainerSignals[] = {
    {ContainerSignal::cpu_throttled_ratio, "container_cpu_throttled_ratio"},
    {ContainerSignal::cpu_throttled_periods_ratio, "container_cpu_throttled_periods_ratio"},
    {ContainerSignal::cpu_usage_cores, "container_cpu_usage_cores"},
    {ContainerSignal::memory_usage_bytes, "container_memory_usage_bytes"},
    {ContainerSignal::memory_fill, "container_memory_fill"},
    {ContainerSignal::memory_events_low_increase, "container_memory_events_low_increase"},
    {ContainerSignal::memory_events_high_increase, "container_memory_events_high_increase"},
    {ContainerSignal::memory_events_max_increase, "container_memory_events_max_increase"},
    {ContainerSignal::memory_events_oom_increase, "container_memory_events_oom_increase"},
    {ContainerSignal::memory_events_oom_kill_increase, "container_memory_events_oom_kill_increase"},
};
static_assert(names_are_distinct(kContainerSignals) && rows_follow_values(kContainerSignals));

// The labels a container selector may name: the container tier's labels on /metrics, which
// follow cAdvisor's (`id` is the cgroup path, `name` the runtime's name).
inline constexpr std::string_view kContainerLabels[] = {"id",  "name",      "namespace",
                                                        "pod", "container", "image"};

// Whether the selector names the container family (its name starts with "container_").
[[nodiscard]] bool is_container_selector(const SignalSelector& selector);

// The container rule's signal, or why the selector is not one: an unknown name (with the
// closest known) or a label outside kContainerLabels. Only for is_container_selector.
[[nodiscard]] Result<ContainerSignal> container_signal_of(const SignalSelector& selector);

}  // namespace flightrec::config
