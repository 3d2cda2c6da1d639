#pragma once
// Constants of the recording file layout (docs/RECORDING_FORMAT.md), shared by writer and reader.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace flightrec::recording::detail {

// "\r\n" in the magic catches text-mode line-ending conversion, as PNG's signature does.
inline constexpr std::string_view kMagic{"FLTREC\r\n", 8};
inline constexpr size_t kHeaderSize = 12;  // magic + u32 version

inline constexpr char kBlockTag = 'B';
inline constexpr char kProcessBlockTag = 'P';    // version 2 and later
inline constexpr char kContainerFrameTag = 'C';  // version 3 and later
inline constexpr char kTrailerTag = 'E';
// Version 1: tag, block count, file size, CRC. Version 2 adds the process block count, version 3
// the container frame count after it.
inline constexpr size_t kTrailerSizeV1 = 1 + 8 + 8 + 4;
inline constexpr size_t kTrailerSizeV2 = 1 + 8 + 8 + 8 + 4;
inline constexpr size_t kTrailerSizeV3 = 1 + 8 + 8 + 8 + 8 + 4;

// Bounds on lengths read from a file, so a corrupt length cannot ask for absurd memory.
inline constexpr uint32_t kMaxMetadataBytes = 64u << 20;
inline constexpr uint64_t kMaxBlockBytes = 1ull << 30;

}  // namespace flightrec::recording::detail
