#pragma once
// The machinery keyed sources (diskstats, netdev) share: a file with one row per key (a disk, an
// interface), each key bound once to a fixed slot of a SlotTable, so its series keep their place
// in every frame.
//
// The include/exclude regexes run only the first time a name is seen. Names refused by the filter
// or by a full table are remembered in a fixed-size table, and each row remembers what it resolved
// to last time, so the steady state costs one name comparison per row: no regex, no allocation.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "flightrec/common/regex.h"
#include "flightrec/config/config.h"
#include "flightrec/sampler/slot_table.h"
#include "flightrec/sampler/source.h"
#include "flightrec/sampler/sources/parsing.h"

namespace flightrec::sampler {

class KeySlots {
 public:
  // Refused names remembered at most; past that, a new refused name is re-filtered every read.
  static constexpr uint32_t kMaxIgnored = 1024;

  // `owner` names the source in errors. Throws std::runtime_error naming the regex that does not
  // compile (common/regex.h: RE2 syntax, matched anywhere in the name like Go's MatchString).
  KeySlots(std::string_view owner, const config::KeyFilter& filter, uint32_t max_keys);

  // The slot of the key `name` read on row `row` of the file, binding a free slot when an accepted
  // name is new; -1 when the name is filtered out, longer than SlotTable::kMaxNameLength, or
  // found the table full. Sampler thread only; never throws; allocates only while running a
  // regex on a name never seen before.
  [[nodiscard]] int slot_for(std::string_view name, size_t row) noexcept;

  [[nodiscard]] const SlotTable& table() const noexcept { return slots_; }
  // Distinct accepted names that found no free slot (as far as the ignored table remembers).
  // Safe to read from any thread.
  [[nodiscard]] uint64_t dropped_keys() const noexcept {
    return dropped_.load(std::memory_order_relaxed);
  }

 private:
  struct Name {
    std::array<char, SlotTable::kMaxNameLength> bytes{};
    uint8_t size = 0;
    [[nodiscard]] std::string_view view() const noexcept { return {bytes.data(), size}; }
  };
  static constexpr int32_t kNoHint = -1;

  [[nodiscard]] bool accepts(std::string_view name) const noexcept;
  [[nodiscard]] int find_ignored(std::string_view name) const noexcept;
  int ignore(std::string_view name) noexcept;  // index in ignored_, -1 when it is full
  void remember(size_t row, int32_t hint) noexcept;

  SlotTable slots_;
  std::optional<Regex> include_;
  std::optional<Regex> exclude_;
  std::vector<Name> ignored_;  // capacity kMaxIgnored, reserved once
  // Per row: the slot it resolved to last read (>= 0), an ignored name (-2 - index), or kNoHint.
  std::vector<int32_t> row_hints_;
  std::atomic<uint64_t> dropped_{0};  // written by the sampler thread only
};

// What a keyed format made of one line.
enum class RowParse : uint8_t {
  row,        // a key, and the rest of the line holding its values
  skip,       // not a data line (a header, a blank line)
  malformed,  // a data line whose key could not be read
};

// Shared loop of the keyed parse_* functions: every value kAbsent, then each tracked key's values
// read into its slot's run of Format::kFields values in `out` (capacity * kFields, slot-major).
// The values of keys that are filtered out or have no slot are never parsed. failed when no row
// was found, partial when a line was malformed. `Format` provides
//   static constexpr size_t kFields;
//   static RowParse split(std::string_view line, std::string_view& key, std::string_view& rest);
//   static bool read_values(std::string_view rest, std::span<int64_t, kFields> values);
// (both noexcept; read_values may leave trailing optional fields kAbsent and returns false when
// the values are malformed).
template <typename Format>
SampleStatus parse_keyed_rows(std::string_view text, KeySlots& keys,
                              std::span<int64_t> out) noexcept {
  constexpr size_t kFields = Format::kFields;
  parsing::fill_absent(out);
  if (out.size() != size_t{keys.table().capacity()} * kFields) return SampleStatus::failed;
  size_t rows = 0;
  bool malformed = false;
  std::string_view line;
  while (parsing::next_line(text, line)) {
    std::string_view key;
    std::string_view rest;
    const RowParse result = Format::split(line, key, rest);
    if (result == RowParse::skip) continue;
    if (result == RowParse::malformed) {
      malformed = true;
      continue;
    }
    const int slot = keys.slot_for(key, rows++);
    if (slot < 0) continue;
    const std::span<int64_t, kFields> run =
        out.subspan(static_cast<size_t>(slot) * kFields).template first<kFields>();
    if (!Format::read_values(rest, run)) {
      parsing::fill_absent(run);
      malformed = true;
    }
  }
  if (rows == 0) return SampleStatus::failed;
  return malformed ? SampleStatus::partial : SampleStatus::ok;
}

// A source whose series are per key. describe() emits capacity * fields series, slot-major, each
// with `keys` = &keys().table(); self-metrics read keys().dropped_keys().
class PerKeySource : public Source {
 public:
  [[nodiscard]] virtual const KeySlots& keys() const noexcept = 0;
  [[nodiscard]] uint64_t dropped_keys() const noexcept { return keys().dropped_keys(); }
};

}  // namespace flightrec::sampler
