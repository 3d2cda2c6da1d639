#include "flightrec/sampler/sources/key_slots.h"

#include <stdexcept>
#include <string>

namespace flightrec::sampler {
namespace {

std::optional<Regex> compile(std::string_view owner, std::string_view role,
                             const std::string& pattern) {
  if (pattern.empty()) return std::nullopt;
  auto compiled = Regex::compile(pattern);
  if (!compiled) {
    throw std::runtime_error(std::string(owner) + ": bad " + std::string(role) + " regex \"" +
                             pattern + "\": " + compiled.error());
  }
  return *std::move(compiled);
}

}  // namespace

KeySlots::KeySlots(std::string_view owner, const config::KeyFilter& filter, uint32_t max_keys)
    : slots_(max_keys),
      include_(compile(owner, "include", filter.include)),
      exclude_(compile(owner, "exclude", filter.exclude)),
      row_hints_(size_t{max_keys} + kMaxIgnored, kNoHint) {
  ignored_.reserve(kMaxIgnored);
}

int KeySlots::slot_for(std::string_view name, size_t row) noexcept {
  if (name.empty() || name.size() > SlotTable::kMaxNameLength) return -1;
  // Steady state: the row holds the same key as last read.
  if (row < row_hints_.size()) {
    const int32_t hint = row_hints_[row];
    if (hint >= 0 && slots_.name(static_cast<uint32_t>(hint)) == name) return hint;
    if (hint <= -2 && ignored_[static_cast<size_t>(-2 - hint)].view() == name) return -1;
  }
  if (const int slot = slots_.find(name); slot >= 0) {
    remember(row, slot);
    return slot;
  }
  if (const int index = find_ignored(name); index >= 0) {
    remember(row, -2 - index);
    return -1;
  }
  // A name never seen before: the only time the filter runs.
  const bool accepted = accepts(name);
  if (accepted) {
    if (const int slot = slots_.bind(name); slot >= 0) {
      remember(row, slot);
      return slot;
    }
  }
  if (const int index = ignore(name); index >= 0) {
    if (accepted) dropped_.fetch_add(1, std::memory_order_relaxed);
    remember(row, -2 - index);
  }
  return -1;
}

bool KeySlots::accepts(std::string_view name) const noexcept {
  if (include_ && !include_->search(name)) return false;
  return !(exclude_ && exclude_->search(name));
}

int KeySlots::find_ignored(std::string_view name) const noexcept {
  for (size_t i = 0; i < ignored_.size(); ++i) {
    if (ignored_[i].view() == name) return static_cast<int>(i);
  }
  return -1;
}

int KeySlots::ignore(std::string_view name) noexcept {
  if (ignored_.size() >= kMaxIgnored) return -1;
  Name& entry = ignored_.emplace_back();  // within the reserved capacity: no allocation
  std::copy(name.begin(), name.end(), entry.bytes.begin());
  entry.size = static_cast<uint8_t>(name.size());
  return static_cast<int>(ignored_.size() - 1);
}

void KeySlots::remember(size_t row, int32_t hint) noexcept {
  if (row < row_hints_.size()) row_hints_[row] = hint;
}

}  // namespace flightrec::sampler
