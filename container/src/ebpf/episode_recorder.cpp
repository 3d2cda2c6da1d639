// The episode recorder: the throttle program's reports through an EpisodeAssembler.
#include "flightrec/container/throttle/episode_recorder.h"

#if FLIGHTREC_HAVE_EBPF
#include <time.h>

#include "flightrec/common/clock.h"
#include "flightrec/common/log.h"
#include "throttle_program.h"
#endif

namespace flightrec::container {

#if FLIGHTREC_HAVE_EBPF
namespace {

ThrottleSpan span_of(const flightrec_throttle_event& event) {
  ThrottleSpan span;
  span.cgroup_id = event.cgroup_id;
  span.cpu = event.cpu;
  span.start_ns = event.start_ns;
  span.timed_from_ns = event.timed_from_ns;
  span.end_ns = event.end_ns;
  span.period_ns = static_cast<int64_t>(event.period_ns);
  span.quota_ns = static_cast<int64_t>(event.quota_ns);
  span.period_end_ns = event.period_end_ns;
  span.end_exact = (event.flags & FLIGHTREC_THROTTLE_END_EXACT) != 0;
  return span;
}

class EbpfEpisodeRecorder final : public EpisodeRecorder {
 public:
  EbpfEpisodeRecorder(std::unique_ptr<detail::ThrottleProgram> program, AssemblerSettings settings)
      : program_(std::move(program)), assembler_(settings) {}

  void drain(std::vector<ThrottleEpisode>& out) override {
    events_.clear();
    // Events read before a failure are still used; the rest stay for the next drain.
    if (Status read = program_->consume(events_); !read) {
      log::warn("throttle episode recorder", {{"error", read.error()}});
    }
    for (const flightrec_throttle_event& event : events_) {
      if (event.kind == FLIGHTREC_THROTTLE_BEGAN) {
        assembler_.began(span_of(event));
      } else if (event.kind == FLIGHTREC_THROTTLE_ENDED) {
        assembler_.ended(span_of(event));
      }
    }
    assembler_.take_settled(clock_ns(CLOCK_MONOTONIC), out);
  }

  [[nodiscard]] const std::map<uint64_t, ThrottleTotals>& totals() const override {
    return assembler_.totals();
  }

  [[nodiscard]] std::vector<ThrottleSpan> throttled_now() const override {
    return assembler_.open_spans();
  }

  [[nodiscard]] ThrottleLosses losses() const override {
    return {.dropped = program_->dropped(),
            .untracked = program_->untracked(),
            .abandoned = assembler_.abandoned()};
  }

 private:
  std::unique_ptr<detail::ThrottleProgram> program_;
  EpisodeAssembler assembler_;
  std::vector<flightrec_throttle_event> events_;  // reused between drains
};

}  // namespace

Result<std::unique_ptr<EpisodeRecorder>> make_episode_recorder(AssemblerSettings settings) {
  auto program = detail::ThrottleProgram::open();
  if (!program) return Error{std::move(program).error()};
  return std::unique_ptr<EpisodeRecorder>(
      std::make_unique<EbpfEpisodeRecorder>(std::move(*program), settings));
}

#else

Result<std::unique_ptr<EpisodeRecorder>> make_episode_recorder(AssemblerSettings) {
  return Error{FLIGHTREC_EBPF_UNAVAILABLE};
}

#endif

}  // namespace flightrec::container
