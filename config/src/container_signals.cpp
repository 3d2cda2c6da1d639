#include "flightrec/config/container_signals.h"

#include <algorithm>
#include <vector>

#include "flightrec/common/closest_name.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/text.h"

namespace flightrec::config {
namespace {

constexpr std::string_view kPrefix = "container_";

std::vector<std::string_view> signal_names() {
  std::vector<std::string_view> names;
  for (const auto& row : kContainerSignals) names.push_back(row.name);
  return names;
}

std::string label_list() {
  std::string text;
  for (std::string_view label : kContainerLabels) {
    if (!text.empty()) text += ", ";
    text += label;
  }
  return text;
}

}  // namespace

bool is_container_selector(const SignalSelector& selector) {
  return selector.name.starts_with(kPrefix);
}

Result<ContainerSignal> container_signal_of(const SignalSelector& selector) {
  const auto signal = value_named(kContainerSignals, selector.name);
  if (!signal) {
    std::string message = detail::quote(selector.name) + " is not a container signal";
    if (auto closest = closest_name(selector.name, signal_names())) {
      message += " (did you mean " + detail::quote(*closest) + "?)";
    } else {
      message += " (see docs/TRIGGERS.md, \"Container rules\")";
    }
    return Error{message};
  }
  for (const auto& label : selector.labels) {
    if (std::find(std::begin(kContainerLabels), std::end(kContainerLabels), label.name) ==
        std::end(kContainerLabels)) {
      return Error{"container signals have no label " + detail::quote(label.name) +
                   " (allowed: " + label_list() + ")"};
    }
  }
  return *signal;
}

}  // namespace flightrec::config
