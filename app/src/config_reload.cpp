#include "flightrec/app/config_reload.h"

#include <algorithm>
#include <stdexcept>

#include "flightrec/config/schema.h"

namespace flightrec::app {
namespace {

// Rules as configured: the line a rule sits on is not part of what it means.
bool same_rules(const std::vector<config::TriggerRule>& a,
                const std::vector<config::TriggerRule>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](auto x, auto y) {
    x.line = 0;
    y.line = 0;
    return x == y;
  });
}

}  // namespace

const std::vector<std::string_view>& live_keys() {
  // Each is read where it is used (the incident store, the trigger gate, the scrape, the log, the
  // router's access roles) and has a setter that is safe from any thread; the triggers are
  // swapped in between two frames.
  static const std::vector<std::string_view> keys{"incidents.max_count",
                                                  "incidents.max_bytes",
                                                  "incidents.manual_interval",
                                                  "incidents.capture_oom_kills",
                                                  "incidents.alerts.match",
                                                  "incidents.alerts.pre",
                                                  "incidents.alerts.post",
                                                  "incidents.alerts.max_extension",
                                                  "export.window",
                                                  "export.top_processes",
                                                  "export.top_containers",
                                                  "processes.redact_cmdline",
                                                  "web.max_dump_bytes",
                                                  "web.max_requests",
                                                  "web.roles",
                                                  "web.anonymous_roles",
                                                  "web.open_health",
                                                  "log.level"};
  return keys;
}

ReloadPlan plan_reload(const config::Config& running, const config::Config& loaded) {
  ReloadPlan plan{.effective = running, .applied = {}, .kept = {}};
  for (const config::KeySpec& key : config::schema()) {
    const std::string now = config::value_text(key, running);
    const std::string wanted = config::value_text(key, loaded);
    if (now == wanted) continue;
    const auto& live = live_keys();
    if (std::find(live.begin(), live.end(), key.path) == live.end()) {
      plan.kept.emplace_back(key.path);
      continue;
    }
    // The loaded value, spelled as YAML and read back: it passed the same check when loaded.
    if (const Status applied = config::apply_value(key, wanted, plan.effective); !applied) {
      throw std::logic_error(std::string(key.path) + ": " + applied.error());
    }
    plan.applied.emplace_back(key.path);
  }
  if (!same_rules(running.triggers, loaded.triggers)) {
    plan.effective.triggers = loaded.triggers;
    plan.applied.emplace_back("triggers");
  }
  return plan;
}

void ReloadStatus::collect(exposition::Families& out) const {
  out.gauge("flightrec_config_last_reload_successful",
            "Whether the last configuration reload succeeded (1) or kept the previous one (0).", "",
            successful_.load() ? 1.0 : 0.0);
  out.gauge("flightrec_config_last_reload_success_timestamp_seconds",
            "When the configuration was last loaded successfully (Unix time).", "seconds",
            static_cast<double>(success_real_ns_.load()) / 1e9);
}

}  // namespace flightrec::app
