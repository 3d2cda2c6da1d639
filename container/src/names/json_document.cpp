#include "json_document.h"

namespace flightrec::container::names::detail {
namespace {

struct TooDeep {};

}  // namespace

Result<Json> parse_json(std::string_view text) {
  try {
    // The callback sees each value's depth as it is parsed, before a deep tree is built.
    return Json::parse(text, [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxJsonDepth) throw TooDeep{};
      return true;
    });
  } catch (const TooDeep&) {
    return Error{"nested deeper than " + std::to_string(kMaxJsonDepth) + " levels"};
  } catch (const Json::exception& error) {
    return Error{std::string("not JSON (") + error.what() + ")"};
  }
}

const Json* member(const Json& object, const char* name) {
  const auto found = object.find(name);
  return found == object.end() || found->is_null() ? nullptr : &*found;
}

Result<std::string> optional_string(const Json& object, const std::string& path, const char* name) {
  const Json* value = member(object, name);
  if (value == nullptr) return std::string();
  if (!value->is_string()) return wrong_type(path + name, "a string", *value);
  return value->get<std::string>();
}

Error wrong_type(const std::string& path, std::string_view wanted, const Json& found) {
  return Error{path + ": expected " + std::string(wanted) + ", got " + found.type_name()};
}

}  // namespace flightrec::container::names::detail
