#include "flightrec/config/detail/key_tree.h"

#include <algorithm>

#include "flightrec/config/schema.h"
#include "trigger_list.h"

namespace flightrec::config::detail {
namespace {

// Optimal string alignment distance: edits plus transpositions of neighbours, so "smapler" is one
// typo away from "sampler", as a person would count it.
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string_view last_segment(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

// Every key path and every section path, in table order, without repeats.
std::vector<std::string> all_paths() {
  std::vector<std::string> paths;
  for (const KeySpec& key : schema()) {
    std::string_view path = key.path;
    for (size_t dot = path.find('.'); dot != std::string_view::npos;
         dot = path.find('.', dot + 1)) {
      std::string section(path.substr(0, dot));
      if (std::find(paths.begin(), paths.end(), section) == paths.end()) paths.push_back(section);
    }
    paths.emplace_back(path);
  }
  return paths;
}

std::string did_you_mean(std::string_view path) {
  return "did you mean \"" + std::string(path) + "\"?";
}

}  // namespace

std::string join_path(std::string_view prefix, std::string_view name) {
  if (prefix.empty()) return std::string(name);
  return std::string(prefix) + "." + std::string(name);
}

bool is_section(std::string_view path) {
  if (path.empty()) return true;
  return std::any_of(schema().begin(), schema().end(), [&](const KeySpec& key) {
    return key.path.size() > path.size() && key.path.starts_with(path) &&
           key.path[path.size()] == '.';
  });
}

std::vector<std::string_view> children(std::string_view section) {
  std::vector<std::string_view> names;
  size_t skip = section.empty() ? 0 : section.size() + 1;
  for (const KeySpec& key : schema()) {
    if (!section.empty() && !(key.path.starts_with(section) && key.path.size() > skip &&
                              key.path[section.size()] == '.')) {
      continue;
    }
    std::string_view rest = key.path.substr(skip);
    std::string_view name = rest.substr(0, rest.find('.'));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (section.empty()) names.insert(names.end(), kRuleSections.begin(), kRuleSections.end());
  return names;
}

std::optional<std::string_view> closest_name(std::string_view name,
                                             const std::vector<std::string_view>& candidates) {
  size_t budget = std::max<size_t>(1, name.size() / 3);
  std::optional<std::string_view> best;
  size_t best_distance = budget + 1;
  for (std::string_view candidate : candidates) {
    // Lengths further apart than the budget cannot be close; skipping them also bounds the work.
    size_t length_gap = name.size() > candidate.size() ? name.size() - candidate.size()
                                                       : candidate.size() - name.size();
    if (length_gap > budget) continue;
    size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<std::string> suggest_among(std::string_view section, std::string_view name,
                                         const std::vector<std::string_view>& known) {
  if (auto best = closest_name(name, known)) return did_you_mean(join_path(section, *best));
  return std::nullopt;
}

std::optional<std::string> suggest(std::string_view section, std::string_view name) {
  std::string written = join_path(section, name);
  // `sampler.rate: 1ms` at the top level: the path is right but YAML keys do not split on dots.
  bool dotted = name.find('.') != std::string_view::npos;
  if (dotted && (find_key(written) != nullptr || is_section(written))) {
    return "keys are nested maps, not dotted names: write it as \"" +
           std::string(name.substr(0, name.find('.'))) + ":\" with the rest indented beneath";
  }
  // A typo of a key that belongs here.
  if (auto hint = suggest_among(section, name, children(section))) return hint;
  // The right name in the wrong section, e.g. "sampler.max_bytes" for "buffer.max_bytes".
  for (const std::string& path : all_paths()) {
    if (last_segment(path) == name) return did_you_mean(path);
  }
  return std::nullopt;
}

}  // namespace flightrec::config::detail
