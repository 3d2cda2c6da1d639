#include "flightrec/container/frame/container_frame_codec.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <optional>

#include "flightrec/common/printable.h"
#include "frame_bytes.h"

namespace flightrec::container {
namespace {

using detail::FrameReader;
using detail::FrameWriter;

constexpr std::string_view kMagic{"CFRM", 4};

// Row flags: bits 0-1 the booleans, bits 2-5 which derived values follow.
constexpr uint8_t kReadOk = 1;
constexpr uint8_t kFast = 2;
constexpr uint8_t kCpuCores = 4;
constexpr uint8_t kPeriodsRatio = 8;
constexpr uint8_t kThrottledShare = 16;
constexpr uint8_t kMemoryFill = 32;
constexpr uint8_t kKnownRowFlags = 63;
// Frame flags.
constexpr uint8_t kEpisodesRecorded = 1;

constexpr uint8_t kLastRuntime = static_cast<uint8_t>(Runtime::custom);
constexpr uint8_t kLastQos = static_cast<uint8_t>(QosClass::besteffort);
constexpr uint8_t kLastMode = static_cast<uint8_t>(CgroupMode::hybrid);

// The least bytes an item takes, for FrameReader::count: a row's 8 string lengths, 2 enums, id,
// flags, 36 values and 2 I/O counts at one byte each; a fast read's 7 varints; an episode's 11.
constexpr size_t kMinRowBytes = 8 + 2 + 1 + 1 + 36 + 2;
constexpr size_t kMinFastReadBytes = 7;
constexpr size_t kMinEpisodeBytes = 11;
constexpr size_t kMinIoDeviceBytes = 8;

// Every scalar of CgroupStats but the I/O devices, in coding order: the one list encoder and
// decoder share, so they cannot disagree.
template <typename Stats, typename Visit>
void for_each_value(Stats& s, Visit&& visit) {
  for (auto* v : {&s.cpu.usage_us,
                  &s.cpu.user_us,
                  &s.cpu.system_us,
                  &s.cpu.periods,
                  &s.cpu.throttled_periods,
                  &s.cpu.throttled_us,
                  &s.cpu.bursts,
                  &s.cpu.burst_us,
                  &s.bandwidth.quota_us,
                  &s.bandwidth.period_us,
                  &s.memory.usage_bytes,
                  &s.memory.limit_bytes,
                  &s.memory.high_bytes,
                  &s.memory.swap_bytes,
                  &s.memory.events.low,
                  &s.memory.events.high,
                  &s.memory.events.max,
                  &s.memory.events.oom,
                  &s.memory.events.oom_kill,
                  &s.memory.stat.anon,
                  &s.memory.stat.file,
                  &s.memory.stat.kernel,
                  &s.memory.stat.slab,
                  &s.memory.stat.shmem,
                  &s.memory.stat.swap,
                  &s.memory.stat.workingset_refault_anon,
                  &s.memory.stat.workingset_refault_file,
                  &s.memory.stat.major_faults,
                  &s.pids.current,
                  &s.pids.max,
                  &s.cpu_pressure.some_us,
                  &s.cpu_pressure.full_us,
                  &s.memory_pressure.some_us,
                  &s.memory_pressure.full_us,
                  &s.io_pressure.some_us,
                  &s.io_pressure.full_us}) {
    visit(*v);
  }
}

template <typename Device, typename Visit>
void for_each_io_value(Device& d, Visit&& visit) {
  for (auto* v : {&d.read_bytes, &d.write_bytes, &d.read_ios, &d.write_ios, &d.discard_bytes,
                  &d.discard_ios}) {
    visit(*v);
  }
}

void put_le32(std::string& out, uint32_t value) {
  for (size_t i = 0; i < 4; ++i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
}
uint32_t get_le32(std::string_view bytes, size_t at) {
  uint32_t value = 0;
  for (size_t i = 0; i < 4; ++i) value |= uint32_t{static_cast<uint8_t>(bytes[at + i])} << (8 * i);
  return value;
}
uint32_t crc_of(std::string_view bytes) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0),
                                     reinterpret_cast<const Bytef*>(bytes.data()),
                                     static_cast<uInt>(bytes.size())));
}

void encode_row(FrameWriter& w, const ContainerRow& row) {
  w.string(row.path);
  w.string(row.id);
  w.u8(static_cast<uint8_t>(row.runtime));
  w.u8(static_cast<uint8_t>(row.qos));
  w.varint(row.cgroup_id);
  for (const std::string* s :
       {&row.pod_namespace, &row.pod, &row.pod_uid, &row.container, &row.name, &row.image}) {
    w.string(*s);
  }
  uint8_t flags = (row.read_ok ? kReadOk : 0) | (row.fast ? kFast : 0);
  const std::array<std::pair<const std::optional<double>*, uint8_t>, 4> derived{
      {{&row.cpu_cores, kCpuCores},
       {&row.throttled_periods_ratio, kPeriodsRatio},
       {&row.throttled_share, kThrottledShare},
       {&row.memory_fill, kMemoryFill}}};
  for (const auto& [value, bit] : derived) {
    if (value->has_value()) flags |= bit;
  }
  w.u8(flags);
  for (const auto& [value, bit] : derived) {
    if (value->has_value()) w.f64(**value);
  }
  for_each_value(row.stats, [&](int64_t v) { w.value(v); });
  w.varint(row.stats.io.count);
  w.varint(row.stats.io.dropped);
  for (size_t i = 0; i < row.stats.io.count; ++i) {
    const IoDevice& device = row.stats.io.devices[i];
    w.varint(device.major);
    w.varint(device.minor);
    for_each_io_value(device, [&](int64_t v) { w.value(v); });
  }
}

void decode_row(FrameReader& r, ContainerRow& row, size_t index) {
  const std::string where = "row " + std::to_string(index) + ": ";
  row.path = r.string();
  row.id = r.string();
  const uint8_t runtime = r.u8();
  const uint8_t qos = r.u8();
  if (runtime > kLastRuntime)
    r.fail(where + "runtime " + std::to_string(runtime) + " is not known");
  if (qos > kLastQos) r.fail(where + "QoS class " + std::to_string(qos) + " is not known");
  row.runtime = static_cast<Runtime>(runtime);
  row.qos = static_cast<QosClass>(qos);
  row.cgroup_id = r.varint();
  for (std::string* s :
       {&row.pod_namespace, &row.pod, &row.pod_uid, &row.container, &row.name, &row.image}) {
    *s = r.string();
  }
  const uint8_t flags = r.u8();
  if ((flags & ~kKnownRowFlags) != 0) {
    r.fail(where + "flags " + std::to_string(flags) + " hold bits this version does not know");
  }
  row.read_ok = (flags & kReadOk) != 0;
  row.fast = (flags & kFast) != 0;
  const std::array<std::pair<std::optional<double>*, uint8_t>, 4> derived{
      {{&row.cpu_cores, kCpuCores},
       {&row.throttled_periods_ratio, kPeriodsRatio},
       {&row.throttled_share, kThrottledShare},
       {&row.memory_fill, kMemoryFill}}};
  for (const auto& [value, bit] : derived) {
    if ((flags & bit) != 0) *value = r.f64();
  }
  for_each_value(row.stats, [&](int64_t& v) { v = r.value(); });
  const uint64_t devices = r.varint();
  row.stats.io.dropped = r.varint();
  if (devices > kMaxIoDevices) {
    r.fail(where + std::to_string(devices) + " I/O devices, more than " +
           std::to_string(kMaxIoDevices));
    return;
  }
  if (r.ok() && devices > r.remaining() / kMinIoDeviceBytes) {
    r.fail(where + "I/O device count " + std::to_string(devices) + " runs past the frame");
    return;
  }
  row.stats.io.count = devices;
  for (size_t i = 0; i < devices; ++i) {
    IoDevice& device = row.stats.io.devices[i];
    const uint64_t major = r.varint();
    const uint64_t minor = r.varint();
    if (major > UINT32_MAX || minor > UINT32_MAX) {
      r.fail(where + "device number " + std::to_string(major) + ":" + std::to_string(minor) +
             " out of range");
    }
    device.major = static_cast<uint32_t>(major);
    device.minor = static_cast<uint32_t>(minor);
    for_each_io_value(device, [&](int64_t& v) { v = r.value(); });
  }
}

void encode_fast_read(FrameWriter& w, const FastRead& read, int64_t frame_time_ns) {
  // Fast reads come within a round or two of the frame's time: a small signed offset.
  w.signed_varint(read.time_unix_ns - frame_time_ns);
  w.varint(read.row);
  for (int64_t v : {read.usage_us, read.periods, read.throttled_periods, read.throttled_us,
                    read.memory_usage_bytes}) {
    w.value(v);
  }
}

void decode_fast_read(FrameReader& r, FastRead& read, int64_t frame_time_ns, size_t rows,
                      size_t index) {
  const int64_t offset = r.signed_varint();
  const uint64_t row = r.varint();
  if (!r.ok()) return;
  const std::string where = "fast read " + std::to_string(index) + ": ";
  if (__builtin_add_overflow(frame_time_ns, offset, &read.time_unix_ns)) {
    r.fail(where + "time out of range");
  }
  if (row >= rows) {
    r.fail(where + "row " + std::to_string(row) + " is not one of the frame's " +
           std::to_string(rows));
  }
  read.row = static_cast<uint32_t>(row);
  for (int64_t* v : {&read.usage_us, &read.periods, &read.throttled_periods, &read.throttled_us,
                     &read.memory_usage_bytes}) {
    *v = r.value();
  }
}

void encode_episode(FrameWriter& w, const ThrottleEpisode& e) {
  w.varint(e.cgroup_id);
  for (int64_t v :
       {e.start_ns, e.end_ns, e.period_ns, e.quota_ns, e.period_end_ns, e.throttled_ns}) {
    w.signed_varint(v);
  }
  w.varint(e.cpus);
  w.varint(e.spans);
  w.varint(e.refills);
  w.u8(e.end_exact ? 1 : 0);
}

void decode_episode(FrameReader& r, ThrottleEpisode& e, size_t index) {
  e.cgroup_id = r.varint();
  for (int64_t* v :
       {&e.start_ns, &e.end_ns, &e.period_ns, &e.quota_ns, &e.period_end_ns, &e.throttled_ns}) {
    *v = r.signed_varint();
  }
  const std::string where = "episode " + std::to_string(index) + ": ";
  for (uint32_t* v : {&e.cpus, &e.spans, &e.refills}) {
    const uint64_t n = r.varint();
    if (n > UINT32_MAX) r.fail(where + "count " + std::to_string(n) + " out of range");
    *v = static_cast<uint32_t>(n);
  }
  const uint8_t exact = r.u8();
  if (exact > 1) r.fail(where + "end_exact " + std::to_string(exact) + " is not 0 or 1");
  e.end_exact = exact == 1;
}

std::string encode_payload(const ContainerFrame& frame) {
  std::string payload;
  FrameWriter w(payload);
  w.signed_varint(frame.time_unix_ns);
  w.signed_varint(frame.mono_ns);
  w.u8(static_cast<uint8_t>(frame.mode));
  w.u8(frame.episodes_recorded ? kEpisodesRecorded : 0);
  w.varint(frame.untracked);
  w.varint(frame.containers.size());
  for (const ContainerRow& row : frame.containers) encode_row(w, row);
  w.varint(frame.fast_reads.size());
  for (const FastRead& read : frame.fast_reads) encode_fast_read(w, read, frame.time_unix_ns);
  w.varint(frame.episodes.size());
  for (const ThrottleEpisode& episode : frame.episodes) encode_episode(w, episode);
  return payload;
}

Result<ContainerFrame> decode_payload(std::string_view payload) {
  FrameReader r(payload);
  ContainerFrame frame;
  frame.time_unix_ns = r.signed_varint();
  frame.mono_ns = r.signed_varint();
  const uint8_t mode = r.u8();
  if (mode > kLastMode) r.fail("cgroup mode " + std::to_string(mode) + " is not known");
  frame.mode = static_cast<CgroupMode>(mode);
  const uint8_t flags = r.u8();
  if ((flags & ~kEpisodesRecorded) != 0) {
    r.fail("flags " + std::to_string(flags) + " hold bits this version does not know");
  }
  frame.episodes_recorded = (flags & kEpisodesRecorded) != 0;
  const uint64_t untracked = r.varint();
  if (untracked > UINT32_MAX)
    r.fail("untracked count " + std::to_string(untracked) + " out of range");
  frame.untracked = static_cast<uint32_t>(untracked);

  frame.containers.resize(r.count(kMinRowBytes, "container"));
  for (size_t i = 0; i < frame.containers.size() && r.ok(); ++i) {
    decode_row(r, frame.containers[i], i);
    if (r.ok() && i > 0 && !(frame.containers[i - 1].path < frame.containers[i].path)) {
      r.fail("row " + std::to_string(i) + ": path " +
             quote_for_error(frame.containers[i].path, {.max_bytes = 256}) + " does not follow " +
             quote_for_error(frame.containers[i - 1].path, {.max_bytes = 256}) +
             " (rows go by path)");
    }
  }
  frame.fast_reads.resize(r.count(kMinFastReadBytes, "fast read"));
  for (size_t i = 0; i < frame.fast_reads.size() && r.ok(); ++i) {
    decode_fast_read(r, frame.fast_reads[i], frame.time_unix_ns, frame.containers.size(), i);
    if (r.ok() && i > 0 &&
        frame.fast_reads[i].time_unix_ns < frame.fast_reads[i - 1].time_unix_ns) {
      r.fail("fast read " + std::to_string(i) + ": time goes back");
    }
  }
  frame.episodes.resize(r.count(kMinEpisodeBytes, "episode"));
  for (size_t i = 0; i < frame.episodes.size() && r.ok(); ++i) {
    decode_episode(r, frame.episodes[i], i);
  }
  if (r.ok() && r.remaining() != 0) {
    r.fail(std::to_string(r.remaining()) + " bytes after the last episode");
  }
  if (!r.ok()) return Error{"container frame: " + r.error()};
  return frame;
}

}  // namespace

const ContainerRow* find_by_cgroup_id(const ContainerFrame& frame, uint64_t cgroup_id) {
  if (cgroup_id == 0) return nullptr;
  const auto it = std::find_if(frame.containers.begin(), frame.containers.end(),
                               [&](const ContainerRow& row) { return row.cgroup_id == cgroup_id; });
  return it == frame.containers.end() ? nullptr : &*it;
}

std::string encode_container_frame(const ContainerFrame& frame) {
  const std::string payload = encode_payload(frame);
  std::string out;
  out.reserve(kContainerFrameOverhead + payload.size());
  out.append(kMagic);
  put_le32(out, kContainerFrameVersion);
  put_le32(out, static_cast<uint32_t>(payload.size()));
  out.append(payload);
  put_le32(out, crc_of(payload));
  return out;
}

Result<ContainerFrame> decode_container_frame(std::string_view bytes) {
  if (bytes.size() < kContainerFrameOverhead) {
    return Error{"container frame: " + std::to_string(bytes.size()) + " bytes, shorter than its " +
                 std::to_string(kContainerFrameOverhead) + "-byte header and CRC"};
  }
  if (bytes.substr(0, 4) != kMagic) return Error{"container frame: no CFRM magic"};
  const uint32_t version = get_le32(bytes, 4);
  if (version != kContainerFrameVersion) {
    return Error{"container frame: version " + std::to_string(version) + " (this flightrec reads " +
                 std::to_string(kContainerFrameVersion) + ")"};
  }
  const uint32_t length = get_le32(bytes, 8);
  if (length > kMaxContainerFramePayload ||
      uint64_t{length} + kContainerFrameOverhead != bytes.size()) {
    return Error{"container frame: payload length " + std::to_string(length) +
                 " does not match its " + std::to_string(bytes.size()) + " bytes"};
  }
  const std::string_view payload = bytes.substr(12, length);
  if (crc_of(payload) != get_le32(bytes, 12 + length)) {
    return Error{"container frame: CRC mismatch (the frame is corrupt)"};
  }
  return decode_payload(payload);
}

}  // namespace flightrec::container
