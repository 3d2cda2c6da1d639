// Feeds arbitrary bytes to decode_container_frame. Whatever it accepts must encode again, and
// that encoding must decode to a frame that encodes the same (bytes, not ==, so a NaN decoded from
// random bits compares). The first input byte picks the mode, since random bytes rarely carry a
// right CRC:
//   0: the rest is an encoded frame, decoded as it is;
//   1: the rest is a payload, given a header and its CRC first (reaches every check behind them).
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/container/frame/container_frame_codec.h"
#include "fuzz_check.h"

namespace {

using flightrec::container::decode_container_frame;
using flightrec::container::encode_container_frame;

void put_le32(std::string& out, uint32_t value) {
  for (size_t i = 0; i < 4; ++i) out.push_back(static_cast<char>(value >> (8 * i) & 0xff));
}

std::string framed(std::string_view payload) {
  std::string bytes("CFRM", 4);
  put_le32(bytes, flightrec::container::kContainerFrameVersion);
  put_le32(bytes, static_cast<uint32_t>(payload.size()));
  bytes.append(payload);
  put_le32(bytes, static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0),
                                              reinterpret_cast<const Bytef*>(payload.data()),
                                              static_cast<uInt>(payload.size()))));
  return bytes;
}

void fuzz(std::string_view bytes) {
  const auto decoded = decode_container_frame(bytes);
  flightrec::fuzz::check_error(decoded);
  if (!decoded) return;
  const std::string again = encode_container_frame(*decoded);
  const auto redecoded = decode_container_frame(again);
  if (!redecoded || encode_container_frame(*redecoded) != again) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = flightrec::fuzz::as_text(data + 1, size - 1);
  if (data[0] % 2 == 0) {
    fuzz(rest);
  } else {
    fuzz(framed(rest));
  }
  return 0;
}
