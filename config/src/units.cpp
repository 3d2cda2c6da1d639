#include "flightrec/config/units.h"

#include <array>
#include <limits>

namespace flightrec::config {
namespace {

// Exact arithmetic on <digits>.<digits> x unit needs more than 64 bits before the final division.
__extension__ using Wide = unsigned __int128;

// A decimal number split into an integer mantissa and a count of fractional digits: 1.25 = 125, 2.
struct Decimal {
  Wide mantissa = 0;
  int fraction_digits = 0;
};

// Mantissas stay below 10^24 so that mantissa x unit (units are below 2^43) fits in 128 bits.
constexpr Wide kMantissaLimit = static_cast<Wide>(1'000'000'000'000ull) * 1'000'000'000'000ull;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Consumes digits, optionally followed by '.' and more digits, from the front of `text`.
std::optional<Decimal> take_decimal(std::string_view& text) {
  Decimal number;
  size_t i = 0;
  size_t integer_digits = 0;
  for (; i < text.size() && is_digit(text[i]); ++i, ++integer_digits) {
    number.mantissa = number.mantissa * 10 + static_cast<unsigned>(text[i] - '0');
    if (number.mantissa >= kMantissaLimit) return std::nullopt;
  }
  if (integer_digits == 0) return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    ++i;
    size_t fraction_start = i;
    for (; i < text.size() && is_digit(text[i]); ++i, ++number.fraction_digits) {
      number.mantissa = number.mantissa * 10 + static_cast<unsigned>(text[i] - '0');
      if (number.mantissa >= kMantissaLimit) return std::nullopt;
    }
    if (i == fraction_start) return std::nullopt;  // "1." is a typo, not a number
  }
  text.remove_prefix(i);
  return number;
}

// number x unit when that is a whole number that fits in `limit`.
std::optional<uint64_t> scale_exactly(const Decimal& number, uint64_t unit, uint64_t limit) {
  Wide divisor = 1;
  for (int i = 0; i < number.fraction_digits; ++i) divisor *= 10;
  Wide product = number.mantissa * unit;
  if (product % divisor != 0) return std::nullopt;
  Wide value = product / divisor;
  if (value > limit) return std::nullopt;
  return static_cast<uint64_t>(value);
}

struct Unit {
  std::string_view name;
  uint64_t factor;
};

// Longest names first where one is a prefix of another ("ms" before "m").
constexpr std::array<Unit, 8> kDurationUnits{{
    {"ns", 1},
    {"us", 1'000},
    {"\u00b5s", 1'000},  // micro sign
    {"\u03bcs", 1'000},  // Greek mu, which some keyboards produce instead
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"m", 60'000'000'000},
    {"h", 3'600'000'000'000},
}};

std::optional<Unit> take_duration_unit(std::string_view& text) {
  for (const Unit& unit : kDurationUnits) {
    if (text.starts_with(unit.name)) {
      text.remove_prefix(unit.name.size());
      return unit;
    }
  }
  return std::nullopt;
}

constexpr std::array<Unit, 9> kSizeUnits{{
    {"B", 1},
    {"KiB", 1ull << 10},
    {"MiB", 1ull << 20},
    {"GiB", 1ull << 30},
    {"TiB", 1ull << 40},
    {"KB", 1'000},
    {"MB", 1'000'000},
    {"GB", 1'000'000'000},
    {"TB", 1'000'000'000'000},
}};

// Integer part of value/unit, then the remainder as decimal digits without trailing zeros.
std::string format_decimal(uint64_t value, uint64_t unit) {
  std::string out = std::to_string(value / unit);
  uint64_t remainder = value % unit;
  if (remainder == 0) return out;
  std::string fraction;
  for (uint64_t place = unit / 10; place > 0 && remainder > 0; place /= 10) {
    fraction += static_cast<char>('0' + remainder / place);
    remainder %= place;
  }
  return out + "." + fraction;
}

}  // namespace

std::optional<Duration> parse_duration(std::string_view text) {
  if (text == "0") return Duration::zero();
  constexpr auto kLimit = static_cast<uint64_t>(std::numeric_limits<Duration::rep>::max());
  uint64_t total = 0;
  uint64_t previous_factor = std::numeric_limits<uint64_t>::max();
  if (text.empty()) return std::nullopt;
  while (!text.empty()) {
    auto number = take_decimal(text);
    if (!number) return std::nullopt;
    auto unit = take_duration_unit(text);
    // Units must decrease ("1m30s", not "30s1m" or "1s1s"), which also rejects repeated units.
    if (!unit || unit->factor >= previous_factor) return std::nullopt;
    previous_factor = unit->factor;
    auto part = scale_exactly(*number, unit->factor, kLimit);
    if (!part || *part > kLimit - total) return std::nullopt;
    total += *part;
  }
  return Duration(static_cast<Duration::rep>(total));
}

std::optional<uint64_t> parse_size(std::string_view text) {
  auto number = take_decimal(text);
  if (!number) return std::nullopt;
  uint64_t factor = 1;
  if (!text.empty()) {
    bool known = false;
    for (const Unit& unit : kSizeUnits) {
      if (text == unit.name) {
        factor = unit.factor;
        known = true;
      }
    }
    if (!known) return std::nullopt;
  }
  return scale_exactly(*number, factor, std::numeric_limits<uint64_t>::max());
}

std::optional<uint64_t> parse_percent_ppm(std::string_view text) {
  if (text == "0") return 0;
  if (!text.ends_with('%')) return std::nullopt;
  text.remove_suffix(1);
  auto number = take_decimal(text);
  if (!number || !text.empty()) return std::nullopt;
  constexpr uint64_t kPpmPerPercent = 10'000;
  return scale_exactly(*number, kPpmPerPercent, std::numeric_limits<uint32_t>::max());
}

std::string format_percent_ppm(uint64_t ppm) { return format_decimal(ppm, 10'000) + "%"; }

std::string format_duration(Duration duration) {
  if (duration < Duration::zero()) {
    // Negate in unsigned arithmetic so the most negative value does not overflow.
    auto magnitude = 0 - static_cast<uint64_t>(duration.count());
    if (magnitude > static_cast<uint64_t>(std::numeric_limits<Duration::rep>::max())) {
      return "-" + std::to_string(magnitude) + "ns";
    }
    return "-" + format_duration(Duration(static_cast<Duration::rep>(magnitude)));
  }
  auto ns = static_cast<uint64_t>(duration.count());
  if (ns == 0) return "0s";
  if (ns < 1'000) return std::to_string(ns) + "ns";
  if (ns < 1'000'000) return format_decimal(ns, 1'000) + "us";
  if (ns < 1'000'000'000) return format_decimal(ns, 1'000'000) + "ms";
  std::string out;
  constexpr uint64_t kHour = 3'600'000'000'000;
  constexpr uint64_t kMinute = 60'000'000'000;
  if (ns >= kHour) out += std::to_string(ns / kHour) + "h";
  ns %= kHour;
  if (ns >= kMinute) out += std::to_string(ns / kMinute) + "m";
  ns %= kMinute;
  if (ns > 0) out += format_decimal(ns, 1'000'000'000) + "s";
  return out;
}

std::string format_size(uint64_t bytes) {
  if (bytes == 0) return "0B";
  // Largest unit that divides exactly, binary before decimal: sizes here are mostly binary.
  constexpr std::array<Unit, 8> kLargestFirst{{{"TiB", 1ull << 40},
                                               {"GiB", 1ull << 30},
                                               {"MiB", 1ull << 20},
                                               {"KiB", 1ull << 10},
                                               {"TB", 1'000'000'000'000},
                                               {"GB", 1'000'000'000},
                                               {"MB", 1'000'000},
                                               {"KB", 1'000}}};
  for (const Unit& unit : kLargestFirst) {
    if (bytes % unit.factor == 0)
      return std::to_string(bytes / unit.factor) + std::string(unit.name);
  }
  return std::to_string(bytes) + "B";
}

}  // namespace flightrec::config
