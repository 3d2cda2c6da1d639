#pragma once
// Compact numbers for narrow columns, the way htop prints them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace flightrec::replay {

// Bytes in at most 5 characters: 999, 1.2K, 34K, 1.2M, 120M, 3.4G (powers of 1024); "-" for none.
std::string format_bytes(std::optional<double> bytes);
// format_bytes with the unit on every non-zero amount: "611B" where it writes "611". Two amounts
// share a column as "611B/610M", which would otherwise read as 611M sent.
std::string format_bytes_with_unit(std::optional<double> bytes);
// A signed amount of bytes, as RGROW shows growth: "+64M", "-2.0M", "+512B", "0"; "-" for none.
std::string format_bytes_signed(std::optional<double> bytes);
// A percentage with one decimal ("12.5"), "-" for none. `ratio` 1.0 prints 100.0.
std::string format_percent(std::optional<double> ratio);
// CPU time as htop's TIME+: minutes:seconds.hundredths ("3:07.25"), hours as "2h05:07".
std::string format_cpu_time(uint64_t nanoseconds);
// A span of time for the status line: "250ms", "1.5s", "2m03s".
std::string format_duration(int64_t nanoseconds);
// What RGROW covers, for the status line and batch output: "10s", "1m00s", "all" (kWholeRecording).
std::string grow_span_text(int64_t span_ns);
// "+1.234s" from the start of the window.
std::string format_offset(int64_t nanoseconds);
// The controlling terminal of /proc/<pid>/stat's tty_nr: "pts/3", "tty1", "-" for none.
std::string format_tty(int32_t tty_nr);
// Bytes that are not printable ASCII become '?', so a command line cannot move the cursor.
std::string printable(std::string_view text);

}  // namespace flightrec::replay
