#pragma once
// The whole configuration as typed values. Loading, validation and the embedded defaults live in
// loader.h; every default here must equal the embedded defaults YAML (a test checks it).
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
};

struct SourceToggle {
  bool enabled = true;
};

struct KeyedSource {
  bool enabled = true;
  KeyFilter filter;
  uint32_t max_keys = 32;  // slots reserved for keys seen at start-up or appearing later
};

struct Config {
  struct Sampler {
    Duration rate = std::chrono::milliseconds(1);
    Duration process_rate = std::chrono::milliseconds(250);
  } sampler;

  struct Buffer {
    Duration duration = std::chrono::minutes(10);
    uint64_t max_bytes = 256ull << 20;
  } buffer;

  struct Sources {
    SourceToggle stat;        // /proc/stat
    SourceToggle cgroup_cpu;  // <cgroupfs>/cpu.stat of the root cgroup v2
    SourceToggle meminfo;     // /proc/meminfo
    SourceToggle loadavg;     // /proc/loadavg
    SourceToggle pressure;    // /proc/pressure/{cpu,memory,io}
    SourceToggle vmstat;      // /proc/vmstat (selected counters)
    KeyedSource diskstats{true, {"", "^(ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$"}, 32};
    KeyedSource netdev{true, {"", ""}, 32};
  } sources;

  struct Web {
    std::string listen_address = "127.0.0.1:9717";
  } web;

  struct Log {
    std::string level = "info";
  } log;
};

}  // namespace flightrec::config
