#pragma once
// The process tier's frames as replay reads them: process blocks kept as the file stores them and
// decoded when a view first needs one of their frames (the last few decoded are kept), beside
// frames already in memory. Opening a recording of thousands of processes then decodes the one or
// two blocks around the cursor rather than every frame: a block of 8 frames of 5,000 processes is
// ~13 MB decoded, a minute of them over 400 MB.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "flightrec/process/process_frame.h"
#include "flightrec/recording/recording_file.h"

namespace flightrec::replay {

class ProcessHistory {
 public:
  using Frames = std::vector<process::ProcessFrame>;

  // The frames newest at or before a time and the one its rates start from (frames_around.h's
  // rule), each with the decoded run it points into: holding these keeps them valid whatever is
  // decoded later. A frame in a damaged block is null (error() says why).
  struct Around {
    const process::ProcessFrame* frame = nullptr;
    const process::ProcessFrame* previous = nullptr;
    std::shared_ptr<const Frames> frame_run;
    std::shared_ptr<const Frames> previous_run;
  };

  // One frame and the decoded run it points into (held, it stays valid); null frame: none.
  struct At {
    const process::ProcessFrame* frame = nullptr;
    std::shared_ptr<const Frames> run;
  };

  ProcessHistory() = default;
  // `frames` ascending in time; `blocks` each ascending, in any order. The blocks of one
  // recording cover disjoint spans (one ring sealed them one after the other).
  ProcessHistory(Frames frames, recording::ProcessBlockList blocks);

  [[nodiscard]] bool empty() const noexcept { return frames_ == 0; }
  [[nodiscard]] size_t size() const noexcept { return frames_; }
  // The first frame's time, known without decoding it; 0 when there is none.
  [[nodiscard]] int64_t first_time() const noexcept {
    return runs_.empty() ? 0 : runs_.front().first_ns;
  }
  // Every frame's time, ascending. Decodes every block (once each, one at a time): for the
  // timeline of a recording without system frames.
  [[nodiscard]] std::vector<int64_t> times() const;
  // The frame newest at or before `time_ns`, and the newest at least `interval_ns` before that
  // (the frame just before it when none is that far back).
  [[nodiscard]] Around around(int64_t time_ns, int64_t interval_ns) const;
  // The frame newest at or before `time_ns`, and the oldest after it: each decodes at most the
  // one block that holds it.
  [[nodiscard]] At at_or_before(int64_t time_ns) const;
  [[nodiscard]] At first_after(int64_t time_ns) const;
  // The first block found damaged (its CRC checked out when read, its frames do not decode: a
  // writer's bug or a crafted file), named by its frames' times and what is wrong; "" while none.
  [[nodiscard]] const std::string& error() const noexcept { return error_; }

  // How many blocks are held decoded at most: the cursor's and the one its rates start from, with
  // room to step back and forth across a block boundary without decoding again.
  static constexpr size_t kDecodedBlocks = 4;

 private:
  // A run of consecutive frames: a block, or the frames given in memory.
  struct Run {
    int64_t first_ns = 0;
    int64_t last_ns = 0;
    size_t first_frame = 0;  // index of its first frame among all runs' frames
    size_t frames = 0;
    std::shared_ptr<const store::ProcessBlock> block;  // null for frames in memory
    mutable std::shared_ptr<const Frames> decoded;
    mutable bool damaged = false;
    mutable uint64_t used = 0;  // when it was last asked for, to drop the least recent
  };

  // The index (among all frames) of the newest frame at or before `time_ns`; none before the first.
  [[nodiscard]] std::optional<size_t> index_at_or_before(int64_t time_ns) const;
  [[nodiscard]] size_t run_of(size_t frame) const;
  [[nodiscard]] At frame(size_t index) const;
  // Null when the block is damaged.
  [[nodiscard]] std::shared_ptr<const Frames> decoded(size_t index) const;
  // Decodes a block's frames, checking them; null (and error_ set) when they do not decode.
  [[nodiscard]] std::shared_ptr<Frames> decode(const Run& run) const;

  std::vector<Run> runs_;  // ascending first_ns
  size_t frames_ = 0;
  mutable uint64_t uses_ = 0;
  mutable std::string error_;
};

}  // namespace flightrec::replay
