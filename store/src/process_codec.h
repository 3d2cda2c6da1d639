#pragma once
// The uncompressed payload of a ProcessBlock: each frame coded as its difference from the frame
// before it (the first from an empty frame, so it is a keyframe). Layout: docs/STORAGE.md.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/process/process_frame.h"

namespace flightrec::store::detail {

using process::ProcessFrame;

class ProcessFrameEncoder {
 public:
  // `frame` must stay alive until the next add(): it is the base of the next delta.
  void add(const ProcessFrame& frame);
  [[nodiscard]] const std::vector<uint8_t>& bytes() const noexcept { return out_; }

 private:
  std::vector<uint8_t> out_;
  std::vector<uint8_t> rows_;  // scratch: changed rows are counted before they are written
  const ProcessFrame* previous_ = nullptr;
};

// Decodes untrusted payload bytes frame by frame; every count and length is checked against the
// bytes left and the bounds in process_block.h.
class ProcessFrameDecoder {
 public:
  explicit ProcessFrameDecoder(std::span<const uint8_t> payload) : in_(payload) {}

  // Decodes frame number `index` into current(); the error says what was wrong.
  Status next(uint32_t index);
  [[nodiscard]] const ProcessFrame& current() const noexcept { return current_; }
  [[nodiscard]] bool at_end() const noexcept { return at_ == in_.size(); }

 private:
  Status next_rows();
  Status next_sockets();

  std::span<const uint8_t> in_;
  size_t at_ = 0;
  ProcessFrame current_;
};

}  // namespace flightrec::store::detail
