#pragma once
// Names of the keys (disks, interfaces) a keyed source has seen, bound to slots once and never
// rebound. The sampler thread is the only writer; other threads read names of slots < bound().
// Binding a slot writes the name first and then publishes the count with release order, so a
// reader that loads bound() with acquire order sees complete names without a lock.
#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace flightrec::sampler {

class SlotTable {
 public:
  static constexpr size_t kMaxNameLength = 47;

  explicit SlotTable(uint32_t capacity) : names_(capacity) {}
  SlotTable(const SlotTable&) = delete;
  SlotTable& operator=(const SlotTable&) = delete;

  [[nodiscard]] uint32_t capacity() const noexcept { return static_cast<uint32_t>(names_.size()); }
  [[nodiscard]] uint32_t bound() const noexcept { return bound_.load(std::memory_order_acquire); }

  [[nodiscard]] std::string_view name(uint32_t slot) const noexcept {
    return std::string_view(names_[slot].data());
  }

  // Slot of `name`, or -1 when it has none. Writer thread only (reads bound_ relaxed).
  [[nodiscard]] int find(std::string_view name) const noexcept {
    const uint32_t n = bound_.load(std::memory_order_relaxed);
    for (uint32_t i = 0; i < n; ++i) {
      if (name == std::string_view(names_[i].data())) return static_cast<int>(i);
    }
    return -1;
  }

  // Binds `name` to the next free slot; -1 when the table is full or the name too long.
  // Writer thread only. Never allocates.
  int bind(std::string_view name) noexcept {
    const uint32_t n = bound_.load(std::memory_order_relaxed);
    if (n >= names_.size() || name.size() > kMaxNameLength) return -1;
    std::memcpy(names_[n].data(), name.data(), name.size());
    names_[n][name.size()] = '\0';
    bound_.store(n + 1, std::memory_order_release);
    return static_cast<int>(n);
  }

 private:
  std::vector<std::array<char, kMaxNameLength + 1>> names_;
  std::atomic<uint32_t> bound_{0};
};

}  // namespace flightrec::sampler
