#include "flightrec/common/json_writer.h"
#include "flightrec/common/time_format.h"
#include "flightrec/snapshot/render.h"

namespace flightrec::snapshot {
namespace {

// Times appear twice: readable (RFC 3339, ms) and exact (Unix ns).
void write_time(JsonWriter& json, const std::string& name, int64_t unix_ns) {
  json.key(name).string(format_rfc3339_ms(unix_ns));
  json.key(name + "_unix_ns").number(unix_ns);
}

template <typename T>
void write_optional(JsonWriter& json, std::string_view name, const std::optional<T>& value) {
  json.key(name);
  if (value) {
    json.number(*value);
  } else {
    json.null();
  }
}

void write_system_value(JsonWriter& json, const SystemValue& value) {
  json.begin_object();
  json.key("name").string(value.name);
  json.key("labels").begin_object();
  for (const auto& [label, label_value] : value.labels) json.key(label).string(label_value);
  json.end_object();
  // An unscaled value stays an exact integer; doubles would round counters above 2^53.
  json.key("value");
  if (value.scale == 1.0) {
    json.number(value.raw);
  } else {
    json.number(value.value());
  }
  json.key("unit").string(value.unit);
  json.key("kind").string(sampler::kind_name(value.kind));
  json.key("source").string(value.source);
  json.end_object();
}

void write_process(JsonWriter& json, const ProcessEntry& process) {
  json.begin_object();
  json.key("pid").number(process.pid);
  json.key("ppid").number(process.ppid);
  json.key("user").string(process.user);
  write_optional(json, "uid", process.uid);
  write_optional(json, "euid", process.euid);
  json.key("state").string(std::string_view(&process.state, 1));
  json.key("comm").string(process.comm);
  json.key("cmdline").string(process.cmdline);
  json.key("cmdline_truncated").boolean(process.cmdline_truncated);
  json.key("kernel_thread").boolean(process.kernel_thread);
  json.key("utime_seconds").number(process.utime_seconds);
  json.key("stime_seconds").number(process.stime_seconds);
  write_time(json, "start_time", process.start_time_unix_ns);
  json.key("rss_bytes").number(process.rss_bytes);
  json.key("vsz_bytes").number(process.vsz_bytes);
  json.key("threads").number(process.threads);
  json.key("minflt").number(process.minflt);
  json.key("majflt").number(process.majflt);
  json.key("priority").number(process.priority);
  json.key("nice").number(process.nice);
  json.end_object();
}

}  // namespace

std::string render_json(const Snapshot& snapshot) {
  std::string out;
  JsonWriter json(out, 2);
  json.begin_object();
  json.key("schema_version").number(kJsonSchemaVersion);
  write_time(json, "time", snapshot.time_unix_ns);
  json.key("hostname").string(snapshot.hostname);
  json.key("kernel_release").string(snapshot.kernel_release);
  write_time(json, "boot_time", snapshot.boot_time_unix_ns);

  json.key("system").begin_array();
  for (const SystemValue& value : snapshot.system) write_system_value(json, value);
  json.end_array();

  json.key("process_counts").begin_object();
  json.key("listed").number(snapshot.processes_listed);
  json.key("read").number(snapshot.processes.size());
  json.key("vanished").number(snapshot.processes_vanished);
  json.end_object();

  json.key("processes").begin_array();
  for (const ProcessEntry& process : snapshot.processes) write_process(json, process);
  json.end_array();

  json.key("errors").begin_array();
  for (const std::string& error : snapshot.errors) json.string(error);
  json.end_array();
  json.end_object();
  out += '\n';
  return out;
}

}  // namespace flightrec::snapshot
