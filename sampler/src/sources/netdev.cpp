#include "flightrec/sampler/sources/netdev.h"

#include <array>
#include <string>
#include <utility>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "keyed_file_source.h"
#include "series_builder.h"

namespace flightrec::sampler {
namespace {

constexpr std::string_view kSourcePath = "/proc/net/dev";

constexpr std::array<detail::SeriesInfo, kNetdevFields> kSeries{{
    {series_names::kNetworkReceiveBytesTotal, SeriesKind::counter, "bytes", 1.0, "Bytes received."},
    {"network_receive_packets_total", SeriesKind::counter, "", 1.0, "Packets received."},
    {"network_receive_errs_total", SeriesKind::counter, "", 1.0, "Receive errors."},
    {"network_receive_drop_total", SeriesKind::counter, "", 1.0, "Received packets dropped."},
    {"network_receive_fifo_total", SeriesKind::counter, "", 1.0, "Receive FIFO overruns."},
    {"network_receive_frame_total", SeriesKind::counter, "", 1.0,
     "Received packets with framing errors."},
    {"network_receive_compressed_total", SeriesKind::counter, "", 1.0,
     "Compressed packets received."},
    {"network_receive_multicast_total", SeriesKind::counter, "", 1.0,
     "Multicast packets received."},
    {series_names::kNetworkTransmitBytesTotal, SeriesKind::counter, "bytes", 1.0, "Bytes sent."},
    {"network_transmit_packets_total", SeriesKind::counter, "", 1.0, "Packets sent."},
    {"network_transmit_errs_total", SeriesKind::counter, "", 1.0, "Transmit errors."},
    {"network_transmit_drop_total", SeriesKind::counter, "", 1.0, "Outgoing packets dropped."},
    {"network_transmit_fifo_total", SeriesKind::counter, "", 1.0, "Transmit FIFO overruns."},
    {"network_transmit_colls_total", SeriesKind::counter, "", 1.0, "Collisions detected."},
    {"network_transmit_carrier_total", SeriesKind::counter, "", 1.0, "Carrier losses."},
    {"network_transmit_compressed_total", SeriesKind::counter, "", 1.0, "Compressed packets sent."},
}};

}  // namespace

RowParse NetdevFormat::split(std::string_view line, std::string_view& interface,
                             std::string_view& rest) noexcept {
  if (line.find('|') != std::string_view::npos) return RowParse::skip;
  if (line.find_first_not_of(" \t") == std::string_view::npos) return RowParse::skip;
  // Interface names cannot contain ':' (the kernel refuses them), so the first one ends the name;
  // old kernels print no blank between it and the first number.
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return RowParse::malformed;
  std::string_view name = line.substr(0, colon);
  interface = parsing::next_token(name);
  parsing::skip_blanks(name);
  if (interface.empty() || !name.empty()) return RowParse::malformed;
  rest = line.substr(colon + 1);
  return RowParse::row;
}

bool NetdevFormat::read_values(std::string_view rest, std::span<int64_t, kFields> values) noexcept {
  for (int64_t& value : values) {
    if (!parsing::read_count(rest, value)) return false;
  }
  parsing::skip_blanks(rest);
  return rest.empty();
}

SampleStatus parse_netdev(std::string_view text, KeySlots& keys, std::span<int64_t> out) noexcept {
  return parse_keyed_rows<NetdevFormat>(text, keys, out);
}

std::unique_ptr<Source> make_netdev_source(const ProcRoot& root, const config::KeyFilter& filter,
                                           uint32_t max_keys) {
  return std::make_unique<detail::KeyedFileSource<NetdevFormat>>(
      "netdev", kSourcePath, kSeries, FileReader(root.proc("net/dev")), filter, max_keys);
}

}  // namespace flightrec::sampler
