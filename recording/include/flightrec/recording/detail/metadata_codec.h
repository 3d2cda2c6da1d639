#pragma once
// The metadata section's payload: length-prefixed binary fields (see docs/RECORDING_FORMAT.md).
#include <string>
#include <string_view>

#include "flightrec/common/result.h"
#include "flightrec/recording/metadata.h"

namespace flightrec::recording::detail {

std::string encode_metadata(const Metadata& metadata);
// The metadata `payload` holds, or what was wrong with it.
Result<Metadata> decode_metadata(std::string_view payload);

}  // namespace flightrec::recording::detail
