#include "flightrec/trigger/alert_payload.h"

#include <nlohmann/json.hpp>

#include "flightrec/common/time_format.h"

namespace flightrec::trigger {
namespace {

using Json = nlohmann::json;

// The first bad field, thrown from deep in the reading and caught once at the top.
struct FieldError {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw FieldError{path + ": " + what};
}

std::string type_of(const Json& value) { return value.type_name(); }

const Json* member(const Json& object, const char* name) {
  const auto found = object.find(name);
  return found == object.end() ? nullptr : &*found;
}

const Json& required(const Json& object, const std::string& path, const char* name) {
  const Json* value = member(object, name);
  if (value == nullptr) fail(path + name, "missing");
  return *value;
}

std::string string_at(const Json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "expected a string, got " + type_of(value));
  return value.get<std::string>();
}

std::string required_string(const Json& object, const std::string& path, const char* name) {
  return string_at(required(object, path, name), path + name);
}

std::string optional_string(const Json& object, const std::string& path, const char* name) {
  const Json* value = member(object, name);
  return value == nullptr || value->is_null() ? std::string() : string_at(*value, path + name);
}

bool firing_status(const Json& object, const std::string& path) {
  const std::string status = required_string(object, path, "status");
  if (status != "firing" && status != "resolved") {
    fail(path + "status", "\"" + status + "\" is neither \"firing\" nor \"resolved\"");
  }
  return status == "firing";
}

// An object of string values, e.g. labels: sorted by name (nlohmann's objects are).
config::AlertLabels string_map(const Json& object, const std::string& path, const char* name) {
  const Json& value = required(object, path, name);
  const std::string at = path + name;
  if (!value.is_object()) fail(at, "expected an object, got " + type_of(value));
  config::AlertLabels out;
  for (const auto& [key, item] : value.items()) {
    std::string field = at;
    field += '.';
    field += key;
    out.emplace_back(key, string_at(item, field));
  }
  return out;
}

int64_t time_at(const Json& object, const std::string& path, const char* name) {
  const std::string text = required_string(object, path, name);
  std::string reason;
  const auto ns = parse_rfc3339_ns(text, &reason);
  // An RFC 3339 time that is none we can hold ("out of range: ...") says so.
  if (!ns && !reason.empty()) fail(path + name, "\"" + text + "\" is not a time (" + reason + ")");
  if (!ns) fail(path + name, "not an RFC 3339 time (\"" + text + "\")");
  // Before 1970 is no time an alert started or ended (and would be a negative Unix time).
  if (*ns < 0) fail(path + name, "\"" + text + "\" is before 1970");
  return *ns;
}

// Go's zero time, which both senders write for "no end" (Prometheus-fed Alertmanager writes a
// real time there for firing alerts: when it will consider the alert resolved if not re-sent).
std::optional<int64_t> end_time_at(const Json& object, const std::string& path) {
  const Json* value = member(object, "endsAt");
  if (value == nullptr) fail(path + "endsAt", "missing");
  if (value->is_string() && value->get<std::string>().starts_with("0001-01-01T00:00:00")) {
    return std::nullopt;
  }
  return time_at(object, path, "endsAt");
}

void read_grafana_extras(const Json& item, const std::string& path, Alert& alert) {
  alert.dashboard_url = optional_string(item, path, "dashboardURL");
  alert.panel_url = optional_string(item, path, "panelURL");
  alert.silence_url = optional_string(item, path, "silenceURL");
  alert.value_string = optional_string(item, path, "valueString");
  if (const Json* values = member(item, "values"); values != nullptr && !values->is_null()) {
    if (!values->is_object()) fail(path + "values", "expected an object, got " + type_of(*values));
    for (const auto& [key, number] : values->items()) {
      if (!number.is_number()) {
        std::string field = path;
        field += "values.";
        field += key;
        fail(field, "expected a number, got " + type_of(number));
      }
    }
  }
}

Alert read_alert(const Json& item, AlertSource source, size_t index) {
  const std::string path = "alerts[" + std::to_string(index) + "].";
  if (!item.is_object())
    fail(path.substr(0, path.size() - 1), "expected an object, got " + type_of(item));
  Alert alert;
  alert.firing = firing_status(item, path);
  alert.labels = string_map(item, path, "labels");
  alert.annotations = string_map(item, path, "annotations");
  alert.starts_at_ns = time_at(item, path, "startsAt");
  alert.ends_at_ns = end_time_at(item, path);
  alert.fingerprint = required_string(item, path, "fingerprint");
  if (alert.fingerprint.empty()) fail(path + "fingerprint", "empty");
  if (source == AlertSource::alertmanager) {
    alert.generator_url = required_string(item, path, "generatorURL");
  } else {
    alert.generator_url = optional_string(item, path, "generatorURL");
    read_grafana_extras(item, path, alert);
  }
  return alert;
}

AlertNotification read_notification(const Json& root, AlertSource source) {
  if (!root.is_object()) fail("body", "expected a JSON object, got " + type_of(root));
  const bool grafana = source == AlertSource::grafana;
  const std::string version = required_string(root, "", "version");
  const char* wanted = grafana ? "1" : "4";
  if (version != wanted) {
    fail("version", "\"" + version + "\" is not " + source_name(source).data() +
                        "'s webhook version \"" + wanted + "\"");
  }
  AlertNotification out{.source = source, .firing = firing_status(root, "")};
  out.receiver =
      grafana ? optional_string(root, "", "receiver") : required_string(root, "", "receiver");
  out.group_key =
      grafana ? optional_string(root, "", "groupKey") : required_string(root, "", "groupKey");
  if (grafana) {
    out.title = optional_string(root, "", "title");
    static_cast<void>(optional_string(root, "", "state"));
    static_cast<void>(optional_string(root, "", "message"));
    if (const Json* org = member(root, "orgId"); org != nullptr && !org->is_number_integer()) {
      fail("orgId", "expected an integer, got " + type_of(*org));
    }
  }
  const Json& alerts = required(root, "", "alerts");
  if (!alerts.is_array()) fail("alerts", "expected an array, got " + type_of(alerts));
  for (size_t i = 0; i < alerts.size(); ++i) out.alerts.push_back(read_alert(alerts[i], source, i));
  return out;
}

}  // namespace

Result<AlertNotification> parse_alert_payload(AlertSource source, std::string_view body) {
  Json root;
  try {
    // Refuse deep nesting while parsing, before a hostile body builds it.
    root = Json::parse(body, [](int depth, Json::parse_event_t, Json&) {
      if (depth > kMaxPayloadDepth)
        throw FieldError{"body: nested deeper than " + std::to_string(kMaxPayloadDepth) +
                         " levels"};
      return true;
    });
  } catch (const FieldError& error) {
    return Error{error.message};
  } catch (const Json::exception& error) {
    return Error{std::string("body: not JSON (") + error.what() + ")"};
  }
  try {
    return read_notification(root, source);
  } catch (const FieldError& error) {
    return Error{error.message};
  }
}

}  // namespace flightrec::trigger
