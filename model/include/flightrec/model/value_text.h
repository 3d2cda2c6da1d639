#pragma once
// A signal's value as a person reads it, in the unit its name ends with: memory_used_bytes
// 2168508416 reads "2.02 GiB", cpu_busy_ratio 0.93 "93.0%", a rate "1.50 MiB/s". Names follow the
// project's metric naming (base units as suffixes), so the series an incident names is enough.
// For people only: JSON and /metrics keep the exact number.
#include <string>
#include <string_view>

namespace flightrec::model {

// `value` of `series` (a name, with or without its {labels}); "-" when there is none (NaN: an
// alert or a manual incident measured nothing).
[[nodiscard]] std::string value_text(std::string_view series, double value);

// Bytes in binary units with three significant digits: "512 B", "1.50 KiB", "2.02 GiB".
[[nodiscard]] std::string bytes_text(double bytes);

}  // namespace flightrec::model
