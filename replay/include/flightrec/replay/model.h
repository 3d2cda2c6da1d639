#pragma once
// Replay's model: a recording and everything derived from it at a cursor (an index into the
// timeline). The TUI and the batch output are two printers of this one model.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/frame/frame_strip.h"
#include "flightrec/replay/container_view.h"
#include "flightrec/replay/process_history.h"
#include "flightrec/replay/process_view.h"
#include "flightrec/replay/replay_data.h"
#include "flightrec/replay/samples.h"
#include "flightrec/replay/system_view.h"
#include "flightrec/replay/table.h"
#include "flightrec/replay/timeline.h"

namespace flightrec::replay {

// What RSS growth (RGROW) covers unless a key or --grow-span says otherwise.
inline constexpr int64_t kDefaultGrowSpanNs = 10'000'000'000;

class Model {
 public:
  Model(ReplayData data, UserNames users);
  // Views point into the data: the model stays where it was built.
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  [[nodiscard]] const recording::Metadata& meta() const noexcept { return data_.meta; }
  [[nodiscard]] const Timeline& timeline() const noexcept { return timeline_; }
  [[nodiscard]] const std::vector<Trigger>& triggers() const noexcept { return triggers_; }
  [[nodiscard]] bool has_processes() const noexcept { return !processes_.empty(); }
  [[nodiscard]] bool has_containers() const noexcept { return !data_.container_frames.empty(); }
  // Process frames are decoded, and checked, as views need them: a damaged block found on the way
  // (ProcessHistory::error()), "" while none is.
  [[nodiscard]] const std::string& process_error() const noexcept { return processes_.error(); }

  // interval_ns: what rates cover (<= 0: one sample); grow_span_ns: what RSS growth covers.
  [[nodiscard]] SystemView system(size_t cursor, int64_t interval_ns) const;
  [[nodiscard]] ProcessesAt processes(size_t cursor, int64_t interval_ns,
                                      int64_t grow_span_ns = kDefaultGrowSpanNs) const;
  [[nodiscard]] ContainersAt containers(size_t cursor, int64_t interval_ns) const;
  // The period strip of the container at cgroup `path`: at most `cells` cells up to the cursor.
  [[nodiscard]] container::ContainerStrip strip(size_t cursor, std::string_view path,
                                                size_t cells) const;
  [[nodiscard]] Table table(size_t cursor, int64_t interval_ns, Tab tab, const Arrangement& how,
                            int64_t grow_span_ns = kDefaultGrowSpanNs) const;

 private:
  ReplayData data_;
  ProcessHistory processes_;
  UserNames users_;
  Samples samples_;
  SystemSeries series_;
  Timeline timeline_;
  std::vector<Trigger> triggers_;
};

// A cursor time as --at and the `g` key take it: RFC 3339 (also with a space for the 'T', as /dump
// takes it, and without a zone: UTC), a time of day ("07:46:35", "07:46:35.123": UTC, on the
// recording's date, or its end's date when that is where the time falls), Unix seconds, "start",
// "end", an offset from the start ("+2.5s", "+1m") or from the end ("-1s"). Times outside the
// window are clamped by place_cursor. The time in Unix ns, or a message naming the text.
Result<int64_t> parse_cursor_time(std::string_view text, int64_t start_ns, int64_t end_ns);

// The sample a time lands on: the newest at or before it, clamped to the recording. `note` says
// when the time was outside the recording (a clamp the user should not miss); empty otherwise.
struct CursorPlace {
  size_t index = 0;
  std::string note;
};
CursorPlace place_cursor(const Timeline& timeline, std::string_view text, int64_t time_ns);

// A duration such as "1ms", "250ms", "1s", or "sample" (0: one sample), for --interval.
std::optional<int64_t> parse_interval(std::string_view text);

}  // namespace flightrec::replay
