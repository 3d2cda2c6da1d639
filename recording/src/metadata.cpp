#include "flightrec/recording/metadata.h"

#include "flightrec/sampler/slot_table.h"

namespace flightrec::recording {

std::vector<SeriesInfo> describe_schema(const sampler::Schema& schema) {
  std::vector<SeriesInfo> out;
  out.reserve(schema.size());
  for (const auto& desc : schema) {
    SeriesInfo info{.name = desc.name,
                    .labels = desc.labels,
                    .unit = desc.unit,
                    .kind = desc.kind,
                    .scale = desc.scale,
                    .source = desc.source};
    if (desc.keys != nullptr) {
      const bool bound = desc.key_slot < desc.keys->bound();
      info.labels.emplace_back(desc.key_label,
                               bound ? std::string(desc.keys->name(desc.key_slot))
                                     : "(unbound " + std::to_string(desc.key_slot) + ")");
    }
    out.push_back(std::move(info));
  }
  return out;
}

std::string series_identity(const SeriesInfo& series) {
  std::string out = series.name;
  if (series.labels.empty()) return out;
  out += '{';
  for (size_t i = 0; i < series.labels.size(); ++i) {
    if (i > 0) out += ',';
    out += series.labels[i].first + "=\"" + series.labels[i].second + '"';
  }
  out += '}';
  return out;
}

}  // namespace flightrec::recording
