#include "name_table.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace flightrec::container::names::detail {

void NameTable::replace(Findings present, int64_t now_ns) {
  for (auto& [key, row] : rows_) {
    if (!row.gone_since_ns && !present.contains(key)) row.gone_since_ns = now_ns;
  }
  while (!present.empty()) {
    auto found = present.extract(present.begin());
    rows_.insert_or_assign(std::move(found.key()),
                           Row{.names = std::move(found.mapped()), .gone_since_ns = std::nullopt});
  }
}

void NameTable::expire(int64_t now_ns, int64_t grace_ns, size_t max_gone) {
  std::erase_if(rows_, [&](const auto& entry) {
    const auto& since = entry.second.gone_since_ns;
    return since && now_ns - *since >= grace_ns;
  });
  std::vector<std::pair<int64_t, std::string_view>> gone;
  for (const auto& [key, row] : rows_) {
    if (row.gone_since_ns) gone.emplace_back(*row.gone_since_ns, key);
  }
  if (gone.size() <= max_gone) return;
  std::sort(gone.begin(), gone.end());
  std::vector<std::string> oldest;
  for (size_t i = 0; i < gone.size() - max_gone; ++i) oldest.emplace_back(gone[i].second);
  for (const auto& key : oldest) rows_.erase(key);
}

const NameTable::Row* NameTable::find(std::string_view key) const {
  const auto found = rows_.find(key);
  return found == rows_.end() ? nullptr : &found->second;
}

}  // namespace flightrec::container::names::detail
