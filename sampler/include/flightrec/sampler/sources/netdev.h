#pragma once
// "netdev": /proc/net/dev — traffic counters per network interface, one run of kNetdevFields
// values per slot of a KeySlots table (see key_slots.h), in the file's column order.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "flightrec/config/config.h"
#include "flightrec/sampler/proc_root.h"
#include "flightrec/sampler/source.h"
#include "flightrec/sampler/sources/key_slots.h"

namespace flightrec::sampler {

// receive: bytes packets errs drop fifo frame compressed multicast;
// transmit: bytes packets errs drop fifo colls carrier compressed.
inline constexpr size_t kNetdevFields = 16;

// The byte counters' series (names without the flightrec_ prefix), keyed by interface (label
// "device"); kLoopbackDevice is the interface that moves no traffic off the machine.
namespace series_names {
inline constexpr std::string_view kNetworkReceiveBytesTotal = "network_receive_bytes_total";
inline constexpr std::string_view kNetworkTransmitBytesTotal = "network_transmit_bytes_total";
}  // namespace series_names
inline constexpr std::string_view kLoopbackDevice = "lo";

// One line: "  name: 16 numbers"; the two header lines (they contain '|') are skipped (see
// parse_keyed_rows).
struct NetdevFormat {
  static constexpr size_t kFields = kNetdevFields;
  static RowParse split(std::string_view line, std::string_view& interface,
                        std::string_view& rest) noexcept;
  static bool read_values(std::string_view rest, std::span<int64_t, kFields> values) noexcept;
};

// Fills `out` (keys.table().capacity() * kNetdevFields values, slot-major) from /proc/net/dev
// bytes, binding new interfaces that pass the filter. An interface absent from `text` stays
// kAbsent.
SampleStatus parse_netdev(std::string_view text, KeySlots& keys, std::span<int64_t> out) noexcept;

// The returned source is a PerKeySource. Throws std::runtime_error naming the file or the regex.
std::unique_ptr<Source> make_netdev_source(const ProcRoot& root, const config::KeyFilter& filter,
                                           uint32_t max_keys);

}  // namespace flightrec::sampler
