#include "flightrec/container/cgroups/io_files.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>

#include "flightrec/sampler/sources/parsing.h"
#include "keyed_lines.h"

namespace flightrec::container {
namespace {

namespace parsing = sampler::parsing;

// "8:16" as a device; false for anything else.
bool read_device(std::string_view token, uint32_t& major, uint32_t& minor) {
  constexpr int64_t kMaxNumber = UINT32_MAX;
  int64_t high = 0;
  int64_t low = 0;
  if (!parsing::read_digits(token, high) || !token.starts_with(':')) return false;
  token.remove_prefix(1);
  if (!parsing::read_digits(token, low) || !token.empty()) return false;
  if (high > kMaxNumber || low > kMaxNumber) return false;
  major = static_cast<uint32_t>(high);
  minor = static_cast<uint32_t>(low);
  return true;
}

// The entry for a device, added when new; null when the table is full.
IoDevice* device_entry(IoStats& stats, uint32_t major, uint32_t minor) {
  for (size_t i = 0; i < stats.count; ++i) {
    if (stats.devices[i].major == major && stats.devices[i].minor == minor) {
      return &stats.devices[i];
    }
  }
  if (stats.count == stats.devices.size()) return nullptr;
  IoDevice& added = stats.devices[stats.count++];
  added = IoDevice{};
  added.major = major;
  added.minor = minor;
  return &added;
}

struct IoStatKey {
  std::string_view name;
  int64_t IoDevice::*member;
};

constexpr std::array<IoStatKey, 6> kIoStatKeys{{
    {"rbytes", &IoDevice::read_bytes},
    {"wbytes", &IoDevice::write_bytes},
    {"rios", &IoDevice::read_ios},
    {"wios", &IoDevice::write_ios},
    {"dbytes", &IoDevice::discard_bytes},
    {"dios", &IoDevice::discard_ios},
}};

// One "key=value" of an io.stat line into `device` (null: its device was dropped); false when a
// wanted key's value is not a whole count.
bool take_io_stat_pair(std::string_view pair, IoDevice* device) {
  const size_t equals = pair.find('=');
  if (equals == std::string_view::npos) return true;  // not ours to judge
  const std::string_view key = pair.substr(0, equals);
  std::string_view value = pair.substr(equals + 1);
  for (const IoStatKey& wanted : kIoStatKeys) {
    if (key != wanted.name) continue;
    int64_t count = 0;
    if (!parsing::read_digits(value, count) || !value.empty()) return false;
    if (device != nullptr) device->*wanted.member = count;
    return true;
  }
  return true;
}

// Which IoDevice fields a blkio operation fills, in the bytes file and in the operations file.
struct BlkioOperation {
  std::string_view name;
  int64_t IoDevice::*bytes;
  int64_t IoDevice::*ios;
};

constexpr std::array<BlkioOperation, 3> kBlkioOperations{{
    {"Read", &IoDevice::read_bytes, &IoDevice::read_ios},
    {"Write", &IoDevice::write_bytes, &IoDevice::write_ios},
    {"Discard", &IoDevice::discard_bytes, &IoDevice::discard_ios},
}};

const BlkioOperation* blkio_operation(std::string_view name) {
  for (const BlkioOperation& operation : kBlkioOperations) {
    if (name == operation.name) return &operation;
  }
  return nullptr;
}

// The per-device sums the kernel adds after the operations; not kept.
bool is_blkio_summary(std::string_view name) {
  return name == "Sync" || name == "Async" || name == "Total";
}

// One blkio.throttle file into `stats`; `bytes` chooses the fields. `dropped` counts the devices
// that found the table full (a device's lines come together, so a change of device is a new one).
Status take_blkio_file(std::string_view text, bool bytes, std::string_view what, IoStats& stats,
                       size_t& dropped) {
  size_t line_number = 0;
  std::string_view line;
  uint64_t last_dropped = UINT64_MAX;
  while (parsing::next_line(text, line)) {
    ++line_number;
    std::string_view rest = line;
    const std::string_view first = parsing::next_token(rest);
    if (first.empty()) continue;
    int64_t value = 0;
    if (first == "Total") {  // the sum over devices
      if (!parsing::read_count(rest, value)) {
        return Error{std::string(what) + " " +
                     detail::line_error(line_number, line, "the total is not a whole count")};
      }
      continue;
    }
    uint32_t major = 0;
    uint32_t minor = 0;
    const std::string_view operation = parsing::next_token(rest);
    const bool counted = parsing::read_count(rest, value);
    parsing::skip_blanks(rest);
    if (!read_device(first, major, minor) || operation.empty() || !counted || !rest.empty()) {
      return Error{
          std::string(what) + " " +
          detail::line_error(line_number, line, "is not \"<major>:<minor> <operation> <count>\"")};
    }
    const BlkioOperation* kept = blkio_operation(operation);
    if (kept == nullptr && !is_blkio_summary(operation)) {
      return Error{std::string(what) + " " +
                   detail::line_error(line_number, line, "names no blkio operation")};
    }
    IoDevice* device = device_entry(stats, major, minor);
    if (device == nullptr) {
      const uint64_t key = (uint64_t{major} << 32) | minor;
      if (key != last_dropped) ++dropped;
      last_dropped = key;
    } else if (kept != nullptr) {
      device->*(bytes ? kept->bytes : kept->ios) = value;
    }
  }
  return {};
}

}  // namespace

Result<IoStats> parse_io_stat(std::string_view text) {
  IoStats stats;
  size_t line_number = 0;
  std::string_view line;
  while (parsing::next_line(text, line)) {
    ++line_number;
    std::string_view rest = line;
    const std::string_view first = parsing::next_token(rest);
    if (first.empty()) continue;
    uint32_t major = 0;
    uint32_t minor = 0;
    if (!read_device(first, major, minor)) {
      return Error{detail::line_error(line_number, line, "does not start with <major>:<minor>")};
    }
    IoDevice* device = device_entry(stats, major, minor);
    if (device == nullptr) ++stats.dropped;
    for (std::string_view pair = parsing::next_token(rest); !pair.empty();
         pair = parsing::next_token(rest)) {
      if (!take_io_stat_pair(pair, device)) {
        return Error{detail::line_error(line_number, line,
                                        "a byte or operation count is not a whole count")};
      }
    }
  }
  return stats;
}

Result<IoStats> parse_blkio_throttle(std::string_view service_bytes, std::string_view serviced) {
  IoStats stats;
  size_t dropped_bytes = 0;
  size_t dropped_ios = 0;
  if (Status bytes = take_blkio_file(service_bytes, true, "io_service_bytes", stats, dropped_bytes);
      !bytes) {
    return Error{std::move(bytes).error()};
  }
  if (Status ios = take_blkio_file(serviced, false, "io_serviced", stats, dropped_ios); !ios) {
    return Error{std::move(ios).error()};
  }
  stats.dropped = std::max(dropped_bytes, dropped_ios);
  return stats;
}

}  // namespace flightrec::container
