#pragma once
// Builds the SeriesDesc fields every source fills the same way, so describe() reads as a table.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "flightrec/sampler/series.h"

namespace flightrec::sampler::detail {

struct SeriesInfo {
  std::string_view name;
  SeriesKind kind;
  std::string_view unit;  // "seconds", "bytes" or "" for plain counts
  double scale;
  std::string_view help;
};

inline SeriesDesc make_series(const SeriesInfo& info, std::string_view source,
                              std::vector<std::pair<std::string, std::string>> labels = {}) {
  SeriesDesc desc;
  desc.name = info.name;
  desc.help = info.help;
  desc.unit = info.unit;
  desc.kind = info.kind;
  desc.scale = info.scale;
  desc.labels = std::move(labels);
  desc.source = source;
  return desc;
}

}  // namespace flightrec::sampler::detail
