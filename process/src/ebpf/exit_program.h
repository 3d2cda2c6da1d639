#pragma once
// The loaded and attached process exit program (process/bpf/exits.bpf.c): owns the skeleton, the
// link keeping it attached and the reader of its ring buffer. Detaches everything when destroyed.
#include <bpf/libbpf.h>
#include <linux/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exit_event.h"
#include "flightrec/common/result.h"

struct exits_bpf;

namespace flightrec::process::detail {

// One event as read from the ring buffer.
struct ExitRecord {
  flightrec_exit_event event{};
  // An OOM victim's (FLIGHTREC_EXIT_OOM_VICTIM), else "" and 0.
  std::string memory_cgroup;
  uint64_t limit_pages = 0;
  uint32_t limit_level = 0;
};

class ExitProgram {
 public:
  // The loaded and attached program, or the error naming the step that failed.
  static Result<std::unique_ptr<ExitProgram>> open();

  ExitProgram(const ExitProgram&) = delete;
  ExitProgram& operator=(const ExitProgram&) = delete;
  ~ExitProgram();

  // Appends the events waiting in the ring buffer without blocking; the error says why when the
  // ring buffer could not be read.
  Status consume(std::vector<ExitRecord>& out);
  [[nodiscard]] uint64_t dropped() const noexcept;

 private:
  ExitProgram() = default;
  static int on_event(void* context, void* data, size_t size);

  exits_bpf* skeleton_ = nullptr;
  ring_buffer* ring_ = nullptr;
  std::vector<ExitRecord>* sink_ = nullptr;  // set during consume()
};

}  // namespace flightrec::process::detail
