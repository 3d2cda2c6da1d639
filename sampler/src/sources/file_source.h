#pragma once
// The one Source shape every fixed-layout file shares (meminfo, loadavg, vmstat, cgroup cpu.stat):
// a kept-open file, a fixed table of N series, and a pure parser that fills exactly N values.
// Only the id, the path, the table and the parser differ.
#include <array>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sources/parsing.h"
#include "series_builder.h"

namespace flightrec::sampler::detail {

template <size_t N, SampleStatus (*Parse)(std::string_view, std::span<int64_t, N>) noexcept>
class FileSource final : public Source {
 public:
  // `source_path` is the file as it is on a standard host, whatever root the reader uses.
  FileSource(std::string_view id, std::string source_path, const std::array<SeriesInfo, N>& series,
             FileReader reader)
      : id_(id),
        source_path_(std::move(source_path)),
        series_(series),
        reader_(std::move(reader)) {}

  [[nodiscard]] std::string_view name() const noexcept override { return id_; }

  void describe(Schema& out) const override {
    for (const auto& info : series_) out.push_back(make_series(info, source_path_));
  }

  SampleStatus sample(std::span<int64_t> out) noexcept override {
    std::string_view text;
    if (out.size() != N || !reader_.read(text)) {
      parsing::fill_absent(out);
      return SampleStatus::failed;
    }
    return Parse(text, out.template first<N>());
  }

 private:
  std::string_view id_;
  std::string source_path_;
  std::array<SeriesInfo, N> series_;  // by value: vmstat's scales are known only at run time
  FileReader reader_;
};

}  // namespace flightrec::sampler::detail
