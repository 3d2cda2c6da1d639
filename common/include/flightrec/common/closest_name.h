#pragma once
// "Did you mean ...?" for every name a person types: config keys, signal names, command-line flags.
// One measure of "close", so each hint is given the same way.
#include <optional>
#include <string_view>
#include <vector>

namespace flightrec {

// The candidate `name` is most likely a typo of, if any: the nearest by edits (insert, delete,
// replace, swap two neighbours, so "smapler" is one typo from "sampler", as a person counts it),
// within about one edit per three characters. Ties go to the earlier candidate.
[[nodiscard]] std::optional<std::string_view> closest_name(
    std::string_view name, const std::vector<std::string_view>& candidates);

}  // namespace flightrec
