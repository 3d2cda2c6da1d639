#include "flightrec/replay/process_history.h"

#include <algorithm>
#include <utility>

#include "flightrec/common/time_format.h"

namespace flightrec::replay {

ProcessHistory::ProcessHistory(Frames frames, recording::ProcessBlockList blocks) {
  if (!frames.empty()) {
    Run run{.first_ns = frames.front().time_unix_ns,
            .last_ns = frames.back().time_unix_ns,
            .frames = frames.size()};
    run.decoded = std::make_shared<const Frames>(std::move(frames));
    runs_.push_back(std::move(run));
  }
  for (auto& block : blocks) {
    Run run{.first_ns = block->first_time_ns(),
            .last_ns = block->last_time_ns(),
            .frames = block->frames()};
    run.block = std::move(block);
    runs_.push_back(std::move(run));
  }
  // Records may come in any order; runs of one time keep their order, as frames did when the
  // whole recording was decoded and sorted.
  std::stable_sort(runs_.begin(), runs_.end(),
                   [](const Run& a, const Run& b) { return a.first_ns < b.first_ns; });
  for (Run& run : runs_) {
    run.first_frame = frames_;
    frames_ += run.frames;
  }
}

std::vector<int64_t> ProcessHistory::times() const {
  std::vector<int64_t> times;
  times.reserve(frames_);
  for (const Run& run : runs_) {
    if (run.decoded) {
      for (const auto& frame : *run.decoded) times.push_back(frame.time_unix_ns);
      continue;
    }
    // One block decoded at a time; a damaged one adds no time.
    if (const auto frames = decode(run)) {
      for (const auto& frame : *frames) times.push_back(frame.time_unix_ns);
    }
  }
  return times;
}

std::optional<size_t> ProcessHistory::index_at_or_before(int64_t time_ns) const {
  const auto after = std::upper_bound(runs_.begin(), runs_.end(), time_ns,
                                      [](int64_t t, const Run& run) { return t < run.first_ns; });
  if (after == runs_.begin()) return std::nullopt;
  const Run& run = *(after - 1);
  // At or past its last frame: its last frame, known without decoding it.
  if (time_ns >= run.last_ns) return run.first_frame + run.frames - 1;
  const auto frames = decoded(static_cast<size_t>(after - 1 - runs_.begin()));
  if (frames == nullptr) return std::nullopt;
  const auto in_run = std::upper_bound(
      frames->begin(), frames->end(), time_ns,
      [](int64_t t, const process::ProcessFrame& f) { return t < f.time_unix_ns; });
  // The run's first frame is at or before time_ns, so in_run is past it.
  return run.first_frame + static_cast<size_t>(in_run - frames->begin()) - 1;
}

size_t ProcessHistory::run_of(size_t frame) const {
  const auto after = std::upper_bound(runs_.begin(), runs_.end(), frame,
                                      [](size_t f, const Run& run) { return f < run.first_frame; });
  return static_cast<size_t>(after - runs_.begin()) - 1;
}

std::shared_ptr<ProcessHistory::Frames> ProcessHistory::decode(const Run& run) const {
  auto frames = std::make_shared<Frames>();
  const Status decoded = run.block->decode_checked(*frames);
  if (decoded) return frames;
  run.damaged = true;
  if (error_.empty()) {
    error_ = "the process frames from " + format_rfc3339_ms(run.first_ns) + " to " +
             format_rfc3339_ms(run.last_ns) + " are damaged (" + decoded.error() + ")";
  }
  return nullptr;
}

std::shared_ptr<const ProcessHistory::Frames> ProcessHistory::decoded(size_t index) const {
  const Run& run = runs_[index];
  run.used = ++uses_;
  if (run.decoded) return run.decoded;
  if (run.damaged) return nullptr;
  // Make room first: the least recently used decoded block goes (frames given in memory stay).
  size_t held = 0;
  const Run* oldest = nullptr;
  for (const Run& other : runs_) {
    if (other.block == nullptr || other.decoded == nullptr) continue;
    ++held;
    if (oldest == nullptr || other.used < oldest->used) oldest = &other;
  }
  if (held >= kDecodedBlocks) oldest->decoded.reset();
  run.decoded = decode(run);
  return run.decoded;
}

ProcessHistory::Around ProcessHistory::around(int64_t time_ns, int64_t interval_ns) const {
  Around around;
  const auto current = index_at_or_before(time_ns);
  if (!current) return around;
  const size_t run = run_of(*current);
  around.frame_run = decoded(run);
  if (around.frame_run == nullptr) return around;
  around.frame = &(*around.frame_run)[*current - runs_[run].first_frame];
  if (*current == 0) return around;
  const auto start =
      index_at_or_before(around.frame->time_unix_ns - std::max<int64_t>(interval_ns, 0));
  const size_t previous = start ? std::min(*start, *current - 1) : *current - 1;
  const size_t previous_run = run_of(previous);
  around.previous_run = decoded(previous_run);
  if (around.previous_run == nullptr) return around;
  around.previous = &(*around.previous_run)[previous - runs_[previous_run].first_frame];
  return around;
}

ProcessHistory::At ProcessHistory::frame(size_t index) const {
  At at;
  const size_t run = run_of(index);
  at.run = decoded(run);
  if (at.run != nullptr) at.frame = &(*at.run)[index - runs_[run].first_frame];
  return at;
}

ProcessHistory::At ProcessHistory::at_or_before(int64_t time_ns) const {
  const auto index = index_at_or_before(time_ns);
  return index ? frame(*index) : At{};
}

ProcessHistory::At ProcessHistory::first_after(int64_t time_ns) const {
  const auto index = index_at_or_before(time_ns);
  const size_t next = index ? *index + 1 : 0;
  return next < frames_ ? frame(next) : At{};
}

}  // namespace flightrec::replay
