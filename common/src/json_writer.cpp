#include "flightrec/common/json_writer.h"

#include <cmath>
#include <stdexcept>

#include "flightrec/common/number_format.h"
#include "flightrec/common/utf8.h"

namespace flightrec {
namespace {

// Large enough that stream writes are rare, small enough to stay in cache.
constexpr size_t kFlushBytes = 16 * 1024;

void append_escaped_control(std::string& out, unsigned char byte) {
  switch (byte) {
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  constexpr char kHex[] = "0123456789abcdef";
  out += "\\u00";
  out += kHex[byte >> 4];
  out += kHex[byte & 0xF];
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  out += '"';
  size_t pos = 0;
  while (pos < text.size()) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte == '"' || byte == '\\') {
      out += '\\';
      out += static_cast<char>(byte);
      ++pos;
    } else if (byte < 0x20) {
      append_escaped_control(out, byte);
      ++pos;
    } else if (const size_t length = utf8_sequence_length(text, pos); length == 0) {
      out += "\\ufffd";
      ++pos;
    } else {
      out.append(text, pos, length);
      pos += length;
    }
  }
  out += '"';
}

JsonWriter::JsonWriter(std::string& out, int indent) : out_(out), indent_(indent) {}

JsonWriter::JsonWriter(std::ostream& out, int indent)
    : out_(buffer_), stream_(&out), indent_(indent) {}

JsonWriter::~JsonWriter() {
  // A failing stream reports through its own state; a destructor must not throw.
  try {
    flush();
  } catch (...) {
  }
}

void JsonWriter::flush() {
  if (stream_ == nullptr || buffer_.empty()) return;
  stream_->write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void JsonWriter::new_line() {
  if (indent_ <= 0) return;
  out_ += '\n';
  out_.append(stack_.size() * static_cast<size_t>(indent_), ' ');
}

void JsonWriter::begin_value() {
  if (stack_.empty()) {
    if (done_) throw std::logic_error("JsonWriter: a second top-level value");
    return;
  }
  Level& level = stack_.back();
  if (level.is_object) {
    if (!after_key_) throw std::logic_error("JsonWriter: a value in an object needs a key first");
    after_key_ = false;
    return;
  }
  if (level.has_members) out_ += ',';
  level.has_members = true;
  new_line();
}

void JsonWriter::end_value() {
  if (stack_.empty()) done_ = true;
  if (stream_ != nullptr && buffer_.size() >= kFlushBytes) flush();
}

JsonWriter& JsonWriter::key(std::string_view name) {
  if (stack_.empty() || !stack_.back().is_object || after_key_) {
    throw std::logic_error("JsonWriter: a key outside an object or after another key");
  }
  Level& level = stack_.back();
  if (level.has_members) out_ += ',';
  level.has_members = true;
  new_line();
  append_json_string(out_, name);
  out_ += indent_ > 0 ? ": " : ":";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_object() {
  begin_value();
  out_ += '{';
  stack_.push_back({true, false});
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  begin_value();
  out_ += '[';
  stack_.push_back({false, false});
  return *this;
}

void JsonWriter::close(bool is_object, char bracket) {
  if (stack_.empty() || stack_.back().is_object != is_object || after_key_) {
    throw std::logic_error(std::string("JsonWriter: unbalanced '") + bracket + "'");
  }
  const bool had_members = stack_.back().has_members;
  stack_.pop_back();
  if (had_members) new_line();
  out_ += bracket;
  end_value();
}

JsonWriter& JsonWriter::end_object() {
  close(true, '}');
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  close(false, ']');
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  begin_value();
  append_json_string(out_, text);
  end_value();
  return *this;
}

JsonWriter& JsonWriter::number(double value) {
  if (!std::isfinite(value)) return null();
  begin_value();
  append_number(out_, value);
  end_value();
  return *this;
}

JsonWriter& JsonWriter::signed_number(int64_t value) {
  begin_value();
  append_number(out_, value);
  end_value();
  return *this;
}

JsonWriter& JsonWriter::unsigned_number(uint64_t value) {
  begin_value();
  append_number(out_, value);
  end_value();
  return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
  begin_value();
  out_ += value ? "true" : "false";
  end_value();
  return *this;
}

JsonWriter& JsonWriter::null() {
  begin_value();
  out_ += "null";
  end_value();
  return *this;
}

}  // namespace flightrec
