#pragma once
// The names of the families collectors give in one scrape, in order: for the tests of which
// collector contributes which families, in whichever component each collector lives.
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/exposition/collectable.h"

namespace flightrec::testing {

inline std::vector<std::string> family_names(const exposition::Collectable& collector) {
  std::vector<prometheus::MetricFamily> families;
  exposition::ExtrasByFamily extras;
  exposition::Families out(families, extras, 0, 9'000'000);
  collector.collect(out);
  std::vector<std::string> names;
  for (const auto& family : families) names.push_back(family.name);
  return names;
}

// Every registered collector's, keeping what they gave in `families` and `extras`.
inline std::vector<std::string> family_names(const exposition::Collectables& collectables,
                                             std::vector<prometheus::MetricFamily>& families,
                                             exposition::ExtrasByFamily& extras) {
  collectables.collect(9'000'000, families, extras);
  std::vector<std::string> names;
  for (const auto& family : families) names.push_back(family.name);
  return names;
}

// True when there are names and every one starts with one of `prefixes`.
inline bool all_start_with(const std::vector<std::string>& names,
                           std::initializer_list<std::string_view> prefixes) {
  for (const auto& name : names) {
    bool found = false;
    for (const auto prefix : prefixes) found = found || name.starts_with(prefix);
    if (!found) return false;
  }
  return !names.empty();
}

}  // namespace flightrec::testing
