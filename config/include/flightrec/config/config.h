#pragma once
// The whole configuration as typed values. Loading, validation and the embedded defaults live in
// loader.h and the key table in schema.h; every default here must equal the embedded defaults YAML
// (a test checks it).
#include <chrono>
#include <cstdint>
#include <string>

namespace flightrec::config {

using Duration = std::chrono::nanoseconds;

// A regex pair selecting keys (disk or interface names): a key is kept when it matches `include`
// (empty: everything) and does not match `exclude` (empty: nothing).
struct KeyFilter {
  std::string include;
  std::string exclude;
  bool operator==(const KeyFilter&) const = default;
};

struct SourceToggle {
  bool enabled = true;
  bool operator==(const SourceToggle&) const = default;
};

struct KeyedSource {
  bool enabled = true;
  KeyFilter filter;
  uint32_t max_keys = 32;  // slots reserved for keys seen at start-up or appearing later
  bool operator==(const KeyedSource&) const = default;
};

struct Config {
  struct Sampler {
    Duration rate = std::chrono::milliseconds(1);
    Duration process_rate = std::chrono::milliseconds(250);
    bool operator==(const Sampler&) const = default;
  } sampler;

  struct Buffer {
    Duration duration = std::chrono::minutes(10);
    uint64_t max_bytes = 256ull << 20;
    bool operator==(const Buffer&) const = default;
  } buffer;

  struct Sources {
    SourceToggle stat;        // /proc/stat
    SourceToggle cgroup_cpu;  // <cgroupfs>/cpu.stat of the root cgroup v2
    SourceToggle meminfo;     // /proc/meminfo
    SourceToggle loadavg;     // /proc/loadavg
    SourceToggle pressure;    // /proc/pressure/{cpu,memory,io}
    SourceToggle vmstat;      // /proc/vmstat (selected counters)
    KeyedSource diskstats{true, {"", "^(ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$"}, 16};
    KeyedSource netdev{true, {"", ""}, 16};
    bool operator==(const Sources&) const = default;
  } sources;

  struct Export {
    // Span of the sliding min/max/mean aggregates /metrics exposes.
    Duration window = std::chrono::seconds(15);
    bool operator==(const Export&) const = default;
  } export_;

  struct Web {
    std::string listen_address = "127.0.0.1:9717";
    bool operator==(const Web&) const = default;
  } web;

  struct Log {
    std::string level = "info";
    bool operator==(const Log&) const = default;
  } log;

  // Whole-value comparison, so tests can check that the embedded defaults equal Config{}.
  bool operator==(const Config&) const = default;
};

}  // namespace flightrec::config
