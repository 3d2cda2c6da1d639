#include "container_json.h"

#include <cmath>
#include <optional>

#include "flightrec/common/json_writer.h"
#include "flightrec/common/number_format.h"
#include "flightrec/recording/convert.h"

namespace flightrec::recording::detail {
namespace {

using container::kAbsent;
using container::kUnlimited;

void value(std::string& out, int64_t v) {
  if (v == kAbsent) {
    out += "null";
  } else if (v == kUnlimited) {
    out += "\"max\"";
  } else {
    append_number(out, v);
  }
}

// A derived value: null when there is none, or when a damaged-but-checksummed file gave NaN.
void derived(std::string& out, const std::optional<double>& v) {
  if (v && std::isfinite(*v)) {
    append_number(out, *v);
  } else {
    out += "null";
  }
}

// `{"a":v,"b":v}` of cgroup values.
void values(std::string& out, std::initializer_list<std::pair<std::string_view, int64_t>> fields) {
  out += '{';
  bool first = true;
  for (const auto& [name, v] : fields) {
    if (!first) out += ',';
    first = false;
    append_json_string(out, name);
    out += ':';
    value(out, v);
  }
  out += '}';
}

void key(std::string& out, std::string_view name) {
  out += ',';
  append_json_string(out, name);
  out += ':';
}

void text(std::string& out, std::string_view name, std::string_view v) {
  key(out, name);
  append_json_string(out, v);
}

void append_stats(std::string& out, const container::CgroupStats& s) {
  key(out, "cpu");
  values(out, {{"usage_us", s.cpu.usage_us},
               {"user_us", s.cpu.user_us},
               {"system_us", s.cpu.system_us},
               {"periods", s.cpu.periods},
               {"throttled_periods", s.cpu.throttled_periods},
               {"throttled_us", s.cpu.throttled_us},
               {"bursts", s.cpu.bursts},
               {"burst_us", s.cpu.burst_us},
               {"quota_us", s.bandwidth.quota_us},
               {"period_us", s.bandwidth.period_us}});
  const auto& m = s.memory;
  key(out, "memory");
  values(out, {{"usage_bytes", m.usage_bytes},
               {"limit_bytes", m.limit_bytes},
               {"high_bytes", m.high_bytes},
               {"swap_bytes", m.swap_bytes}});
  out.pop_back();  // the events and stat objects go inside
  key(out, "events");
  values(out, {{"low", m.events.low},
               {"high", m.events.high},
               {"max", m.events.max},
               {"oom", m.events.oom},
               {"oom_kill", m.events.oom_kill}});
  key(out, "stat");
  values(out, {{"anon", m.stat.anon},
               {"file", m.stat.file},
               {"kernel", m.stat.kernel},
               {"slab", m.stat.slab},
               {"shmem", m.stat.shmem},
               {"swap", m.stat.swap},
               {"workingset_refault_anon", m.stat.workingset_refault_anon},
               {"workingset_refault_file", m.stat.workingset_refault_file},
               {"major_faults", m.stat.major_faults}});
  out += '}';
  key(out, "io");
  out += '[';
  for (size_t i = 0; i < s.io.count && i < s.io.devices.size(); ++i) {
    const container::IoDevice& d = s.io.devices[i];
    if (i > 0) out += ',';
    out += "{\"device\":";
    append_json_string(out, std::to_string(d.major) + ":" + std::to_string(d.minor));
    for (const auto& [name, v] : std::initializer_list<std::pair<std::string_view, int64_t>>{
             {"read_bytes", d.read_bytes},
             {"write_bytes", d.write_bytes},
             {"read_ios", d.read_ios},
             {"write_ios", d.write_ios},
             {"discard_bytes", d.discard_bytes},
             {"discard_ios", d.discard_ios}}) {
      key(out, name);
      value(out, v);
    }
    out += '}';
  }
  out += ']';
  key(out, "io_devices_dropped");
  append_number(out, s.io.dropped);
  key(out, "pids");
  values(out, {{"current", s.pids.current}, {"max", s.pids.max}});
  key(out, "pressure");
  out += "{\"cpu\":";
  values(out, {{"some_us", s.cpu_pressure.some_us}, {"full_us", s.cpu_pressure.full_us}});
  out += ",\"memory\":";
  values(out, {{"some_us", s.memory_pressure.some_us}, {"full_us", s.memory_pressure.full_us}});
  out += ",\"io\":";
  values(out, {{"some_us", s.io_pressure.some_us}, {"full_us", s.io_pressure.full_us}});
  out += '}';
}

void append_row(std::string& out, const container::ContainerRow& row) {
  out += "{\"path\":";
  append_json_string(out, row.path);
  text(out, "id", row.id);
  text(out, "runtime", container::runtime_name(row.runtime));
  text(out, "qos", container::qos_name(row.qos));
  key(out, "cgroup_id");
  append_number(out, row.cgroup_id);
  text(out, "namespace", row.pod_namespace);
  text(out, "pod", row.pod);
  text(out, "pod_uid", row.pod_uid);
  text(out, "container", row.container);
  text(out, "name", row.name);
  text(out, "image", row.image);
  key(out, "read_ok");
  out += row.read_ok ? "true" : "false";
  key(out, "fast");
  out += row.fast ? "true" : "false";
  key(out, "cpu_cores");
  derived(out, row.cpu_cores);
  key(out, "throttled_periods_ratio");
  derived(out, row.throttled_periods_ratio);
  key(out, "throttled_share");
  derived(out, row.throttled_share);
  key(out, "memory_fill");
  derived(out, row.memory_fill);
  append_stats(out, row.stats);
  out += '}';
}

// A monotonic time on the wall clock; wrapping, as a damaged file's times may be anything.
int64_t shifted(int64_t mono_ns, int64_t to_real_ns) {
  return static_cast<int64_t>(static_cast<uint64_t>(mono_ns) + static_cast<uint64_t>(to_real_ns));
}

// Seconds of a duration in nanoseconds.
void seconds(std::string& out, int64_t ns) { append_number(out, static_cast<double>(ns) / 1e9); }

}  // namespace

void append_container_frame_json(std::string& out, const container::ContainerFrame& frame) {
  out += "{\"time\":";
  out += format_unix_seconds(frame.time_unix_ns);
  text(out, "mode", container::mode_name(frame.mode));
  key(out, "untracked");
  append_number(out, frame.untracked);
  key(out, "episodes_recorded");
  out += frame.episodes_recorded ? "true" : "false";
  out += ",\n\"containers\":[";
  for (size_t i = 0; i < frame.containers.size(); ++i) {
    out += i > 0 ? ",\n" : "\n";
    append_row(out, frame.containers[i]);
  }
  out += "],\n\"fast_reads\":[";
  for (size_t i = 0; i < frame.fast_reads.size(); ++i) {
    const container::FastRead& r = frame.fast_reads[i];
    out += i > 0 ? ",[" : "[";
    out += format_unix_seconds(r.time_unix_ns);
    out += ',';
    append_number(out, r.row);
    for (const int64_t v :
         {r.usage_us, r.periods, r.throttled_periods, r.throttled_us, r.memory_usage_bytes}) {
      out += ',';
      value(out, v);
    }
    out += ']';
  }
  // Episodes are monotonic times: shifted onto the wall clock by the frame's own pair of times.
  const auto to_real = static_cast<int64_t>(static_cast<uint64_t>(frame.time_unix_ns) -
                                            static_cast<uint64_t>(frame.mono_ns));
  out += "],\n\"episodes\":[";
  for (size_t i = 0; i < frame.episodes.size(); ++i) {
    const container::ThrottleEpisode& e = frame.episodes[i];
    out += i > 0 ? ",[" : "[";
    append_number(out, e.cgroup_id);
    out += ',';
    out += format_unix_seconds(shifted(e.start_ns, to_real));
    out += ',';
    out += format_unix_seconds(shifted(e.end_ns, to_real));
    out += ',';
    seconds(out, e.period_ns);
    out += ',';
    seconds(out, e.quota_ns);
    out += ',';
    out += format_unix_seconds(shifted(e.period_end_ns, to_real));
    out += ',';
    seconds(out, e.throttled_ns);
    for (const uint32_t n : {e.cpus, e.spans, e.refills}) {
      out += ',';
      append_number(out, n);
    }
    out += e.end_exact ? ",true]" : ",false]";
  }
  out += "]}";
}

}  // namespace flightrec::recording::detail
