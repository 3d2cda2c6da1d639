#pragma once
// The metadata section's payload: length-prefixed binary fields (see docs/RECORDING_FORMAT.md).
#include <string>
#include <string_view>

#include "flightrec/recording/metadata.h"

namespace flightrec::recording::detail {

std::string encode_metadata(const Metadata& metadata);
// Fills `out`; returns an empty string or what was wrong with the payload.
std::string decode_metadata(std::string_view payload, Metadata& out);

}  // namespace flightrec::recording::detail
