#pragma once
// A ContainerFrame as bytes: what the container ring keeps, and what a recording's `C` record and
// /dump's raw format hold. Each encoded frame stands alone (its own version, length and CRC), so a
// reader can decode any one of them. The byte layout is docs/RECORDING_FORMAT.md's
// "Container frames".
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/container/frame/container_frame.h"

namespace flightrec::container {

inline constexpr uint32_t kContainerFrameVersion = 1;
// An encoded frame's payload is at most this long: the decoder refuses a longer length before
// reading on, so a corrupt length cannot ask for absurd memory.
inline constexpr uint32_t kMaxContainerFramePayload = 64u << 20;
// Magic, version, payload length and CRC.
inline constexpr size_t kContainerFrameOverhead = 4 + 4 + 4 + 4;

[[nodiscard]] std::string encode_container_frame(const ContainerFrame& frame);

// The frame in `bytes`, which must hold exactly one encoded frame; else an error naming what was
// wrong ("container frame: CRC mismatch", "container frame: row 3: runtime 9 is not known").
[[nodiscard]] Result<ContainerFrame> decode_container_frame(std::string_view bytes);

}  // namespace flightrec::container
