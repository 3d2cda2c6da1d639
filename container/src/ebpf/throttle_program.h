#pragma once
// The loaded and attached throttle program (container/bpf/cfs_throttle.bpf.c): owns the skeleton,
// the link keeping it attached and the reader of its ring buffer. Detaches everything when
// destroyed.
#include <bpf/libbpf.h>
#include <linux/types.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "flightrec/common/result.h"
#include "throttle_event.h"

struct cfs_throttle_bpf;

namespace flightrec::container::detail {

class ThrottleProgram {
 public:
  // An error naming the step that failed.
  static Result<std::unique_ptr<ThrottleProgram>> open();

  ThrottleProgram(const ThrottleProgram&) = delete;
  ThrottleProgram& operator=(const ThrottleProgram&) = delete;
  ~ThrottleProgram();

  // Appends the events waiting in the ring buffer without blocking. Events read before a failure
  // are appended all the same.
  Status consume(std::vector<flightrec_throttle_event>& out);
  [[nodiscard]] uint64_t dropped() const noexcept;
  [[nodiscard]] uint64_t untracked() const noexcept;

 private:
  ThrottleProgram() = default;
  static int on_event(void* context, void* data, size_t size);

  cfs_throttle_bpf* skeleton_ = nullptr;
  ring_buffer* ring_ = nullptr;
  std::vector<flightrec_throttle_event>* sink_ = nullptr;  // set during consume()
};

}  // namespace flightrec::container::detail
