#pragma once
// A streaming JSON writer: values go out in call order, commas and (optional) indentation are
// handled here, and every string is escaped so the output is always valid JSON (RFC 8259), whatever
// bytes it is given:
//   - '"', '\\' and control characters are escaped (\n, \t, ... or \u00XX);
//   - bytes that are not valid UTF-8 become \ufffd (U+FFFD REPLACEMENT CHARACTER), one per byte;
//   - NaN and infinities, which JSON cannot express, are written as null.
// Misuse (a key outside an object, a value without its key, unbalanced ends, a second top-level
// value) throws std::logic_error: it is a bug in the caller, never a property of the data.
#include <concepts>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace flightrec {

class JsonWriter {
 public:
  // Appends to `out`. indent = 0 writes compact JSON; n > 0 puts each member on its own line,
  // indented by n spaces per level.
  explicit JsonWriter(std::string& out, int indent = 0);
  // Writes to `out` through an internal buffer flushed every few KiB, on flush() and at
  // destruction.
  explicit JsonWriter(std::ostream& out, int indent = 0);
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;
  ~JsonWriter();

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view text);
  JsonWriter& number(double value);
  template <std::integral Int>
  requires(!std::same_as<Int, bool>) JsonWriter& number(Int value) {
    if constexpr (std::is_signed_v<Int>) {
      return signed_number(static_cast<int64_t>(value));
    } else {
      return unsigned_number(static_cast<uint64_t>(value));
    }
  }
  JsonWriter& boolean(bool value);
  JsonWriter& null();

  // True once one top-level value has been written completely.
  [[nodiscard]] bool complete() const noexcept { return done_ && stack_.empty(); }

  // Hands buffered output to the stream (no-op when writing to a string).
  void flush();

 private:
  struct Level {
    bool is_object;
    bool has_members;
  };

  JsonWriter& signed_number(int64_t value);
  JsonWriter& unsigned_number(uint64_t value);
  void begin_value();
  void end_value();
  void new_line();
  void close(bool is_object, char bracket);

  std::string buffer_;  // used only when writing to a stream
  std::string& out_;
  std::ostream* stream_ = nullptr;
  int indent_ = 0;
  std::vector<Level> stack_;
  bool after_key_ = false;
  bool done_ = false;
};

// Appends `text` as a quoted, escaped JSON string.
void append_json_string(std::string& out, std::string_view text);

}  // namespace flightrec
