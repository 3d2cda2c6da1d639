#include "flightrec/app/rule_signals.h"

#include <algorithm>

#include "flightrec/common/closest_name.h"
#include "flightrec/config/container_signals.h"
#include "flightrec/model/signals.h"

namespace flightrec::app {

std::vector<std::string> unknown_rule_signals(const config::Config& config,
                                              const sampler::Schema& schema,
                                              const std::string& origin) {
  std::vector<std::string_view> names(model::signal_names::kAll.begin(),
                                      model::signal_names::kAll.end());
  for (const sampler::SeriesDesc& series : schema) {
    if (std::find(names.begin(), names.end(), series.name) == names.end()) {
      names.push_back(series.name);
    }
  }
  std::vector<std::string> errors;
  // The listed rules come first, in file order: their index is the one the file's errors use.
  for (size_t i = 0; i < config.triggers.size(); ++i) {
    const config::TriggerRule& rule = config.triggers[i];
    if (config::is_container_selector(rule.selector)) continue;  // checked when loaded
    const std::string& name = rule.selector.name;
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    const auto meant = closest_name(name, names);
    std::string error = origin + ":" + std::to_string(rule.line) + ": triggers[" +
                        std::to_string(i) + "].signal: unknown signal \"";
    error += name;
    error += "\" (not a signal or series on this host; ";
    error += meant ? "did you mean \"" + std::string(*meant) + "\"?" : "see docs/TRIGGERS.md";
    error += ")";
    errors.push_back(std::move(error));
  }
  return errors;
}

}  // namespace flightrec::app
