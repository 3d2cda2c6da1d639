#pragma once
// The one Source shape every keyed file shares (diskstats, net/dev): a kept-open file whose rows
// each start with a key; KeySlots binds keys to slots and every slot gets Format::kFields series.
// Only the Format (how a row splits and reads), the id, the path and the series table differ.
#include <array>
#include <span>
#include <string_view>
#include <utility>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/key_slots.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler::detail {

template <typename Format>
class KeyedFileSource final : public PerKeySource {
 public:
  using SeriesTable = std::array<SeriesInfo, Format::kFields>;

  KeyedFileSource(std::string_view id, std::string_view source_path, const SeriesTable& series,
                  FileReader reader, const config::KeyFilter& filter, uint32_t max_keys)
      : id_(id),
        source_path_(source_path),
        series_(series),
        reader_(std::move(reader)),
        keys_(id, filter, max_keys) {}

  [[nodiscard]] std::string_view name() const noexcept override { return id_; }
  [[nodiscard]] const KeySlots& keys() const noexcept override { return keys_; }

  void describe(Schema& out) const override {
    for (uint32_t slot = 0; slot < keys_.table().capacity(); ++slot) {
      for (const auto& info : series_) {
        SeriesDesc desc = make_series(info, source_path_);
        desc.keys = &keys_.table();
        desc.key_slot = slot;
        desc.key_label = "device";
        out.push_back(std::move(desc));
      }
    }
  }

  SampleStatus sample(std::span<int64_t> out) noexcept override {
    std::string_view text;
    if (!reader_.read(text)) {
      parsing::fill_absent(out);
      return SampleStatus::failed;
    }
    return parse_keyed_rows<Format>(text, keys_, out);
  }

 private:
  std::string_view id_;
  std::string_view source_path_;
  const SeriesTable& series_;
  FileReader reader_;
  KeySlots keys_;
};

}  // namespace flightrec::sampler::detail
