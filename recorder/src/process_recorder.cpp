#include "flightrec/recorder/process_recorder.h"

#include <malloc.h>
#include <poll.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <system_error>

#include "flightrec/common/log.h"
#include "flightrec/common/number_format.h"
#include "flightrec/network/sock_diag_backend.h"
#include "flightrec/process/process_backend.h"
#include "flightrec/sampler/sampler.h"

namespace flightrec::recorder {
namespace {

std::unique_ptr<network::TrafficBackend> open_backend(const std::string& choice,
                                                      const sampler::ProcRoot& root,
                                                      std::string& name) {
  std::string note;
  auto backend = network::make_traffic_backend(choice, root, note);
  name = backend ? std::string(backend->name()) : "";
  if (backend) {
    log::info("network backend", {{"backend", name}, {"note", note}});
  } else if (choice != "off") {
    log::warn("no per-process network traffic", {{"backend", choice}, {"reason", note}});
  }
  return backend;
}

// When the holders of a process tier frame let a process go: the /metrics window (export.window,
// kept in buckets of a sixtieth of it) and the ring (buffer.duration, in blocks of a few ticks).
// With a margin, so the trim comes after they have, not just before.
std::vector<HeapTrim::Hold> frame_holds(const config::Config& config,
                                        const store::ProcessRing& ring) {
  const auto with_margin = [](std::chrono::nanoseconds held) {
    return std::chrono::duration_cast<HeapTrim::Clock::duration>(held + held / 20 +
                                                                 std::chrono::seconds(2));
  };
  const auto block_span = config.sampler.process_rate * ring.options().frames_per_block;
  return {{.after = with_margin(config.export_.window), .what = "the /metrics window let them go"},
          {.after = with_margin(ring.options().duration + block_span),
           .what = "the process ring let them go"}};
}

int64_t monotonic_ns() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

}  // namespace

ProcessRecorder::ProcessRecorder(const config::Config& config, const sampler::ProcRoot& root,
                                 store::ProcessRing& ring)
    : period_(config.sampler.process_rate),
      sampler_(process::open_process_source(config, root)),
      backend_(open_backend(config.network.backend, root, backend_name_)),
      socket_ticks_(
          sampler::whole_ticks(config.processes.sockets_rate, config.sampler.process_rate)),
      ring_(ring),
      heap_trim_(frame_holds(config, ring)) {
  if (config.processes.short_lived) {
    if (auto watcher = process::make_process_exit_watcher()) {
      exits_ = *std::move(watcher);
    } else {
      exits_missing_ = std::move(watcher).error();
      log::info("short-lived processes not recorded", {{"reason", exits_missing_}});
    }
  } else {
    exits_missing_ = "processes.short_lived is off";
  }
  // The sock_diag backend already dumps every socket each tick; only the others need a table.
  sock_diag_ = dynamic_cast<network::SockDiagBackend*>(backend_.get());
  if (sock_diag_ == nullptr) {
    try {
      sockets_ = std::make_unique<network::SocketTable>(root);
    } catch (const std::system_error& e) {
      log::warn("no connection tables", {{"err", e.what()}});
    }
  }
}

void ProcessRecorder::run(const StopSignal& stop) {
  Fd timer(::timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC));
  if (!timer.valid()) throw std::system_error(errno, std::generic_category(), "timerfd_create");
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(period_);
  itimerspec spec{};
  spec.it_interval.tv_sec = seconds.count();
  spec.it_interval.tv_nsec = (period_ - seconds).count();
  spec.it_value = spec.it_interval;
  if (::timerfd_settime(timer.get(), 0, &spec, nullptr) != 0) {
    throw std::system_error(errno, std::generic_category(), "timerfd_settime");
  }

  process::ProcessFrame frame;
  pollfd fds[2] = {{timer.get(), POLLIN, 0}, {stop.fd(), POLLIN, 0}};
  while (!stop.requested()) {
    tick(frame);
    // Thrown, not a silent break: guarded_thread logs it and stops the daemon, which would
    // otherwise go on serving a process tier that no longer samples.
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll on the process-tier timer");
    }
    uint64_t expirations = 0;
    if ((fds[0].revents & POLLIN) != 0 &&
        ::read(timer.get(), &expirations, sizeof expirations) == sizeof expirations &&
        expirations > 1) {
      stats_.late_ticks_total.fetch_add(expirations - 1, std::memory_order_relaxed);
    }
  }
  ring_.seal();
}

void ProcessRecorder::tick(process::ProcessFrame& frame) {
  const int64_t started = monotonic_ns();
  sampler_->sample(frame);
  if (exits_) {
    exited_.clear();
    exits_->drain(exited_);
    if (oom_victim_observer_) {
      for (const auto& exited : exited_) {
        if (exited.oom_victim) oom_victim_observer_(exited);
      }
    }
    stats_.short_lived_total.fetch_add(process::attach_exits(frame, exited_),
                                       std::memory_order_relaxed);
    stats_.exits_lost_total.store(exits_->dropped(), std::memory_order_relaxed);
  }
  if (backend_) {
    if (Status read = backend_->read(reading_); read) {
      network::attach_traffic(frame, reading_);
      keep_exited_traffic(frame);
    } else {
      stats_.traffic_failures_total.fetch_add(1, std::memory_order_relaxed);
      if (read.error() != last_traffic_error_) {
        log::warn("network backend read failed", {{"err", read.error()}});
      }
      last_traffic_error_ = std::move(read).error();
    }
    if (sock_diag_ != nullptr) sock_diag_->sockets(frame.sockets);
  }
  if (sockets_) read_socket_table(frame);

  const auto& sampled = sampler_->stats();
  stats_.processes.store(sampled.processes, std::memory_order_relaxed);
  stats_.vanished_total.store(sampled.vanished_total, std::memory_order_relaxed);
  // The counter says how many reads failed; the log which file and why, a few of them at a time.
  const uint64_t failed_reads =
      sampled.read_errors_total - stats_.read_errors_total.load(std::memory_order_relaxed);
  stats_.read_errors_total.store(sampled.read_errors_total, std::memory_order_relaxed);
  if (failed_reads > 0) {
    read_failures_.note(sampled.last_error, failed_reads);
  } else {
    read_failures_.flush();  // what was counted, once the interval has passed
  }
  stats_.dropped_total.fetch_add(frame.processes_dropped, std::memory_order_relaxed);
  if (observer_) observer_(frame);
  // The ring keeps its own copy; the frame's buffers are reused next tick. A refusal is logged
  // when its reason changes (a clock stepped back refuses every frame until it catches up).
  std::string refused;
  try {
    if (Status stored = ring_.push(frame); !stored) refused = std::move(stored).error();
  } catch (const std::exception& e) {  // a bug in the codec must not stop the daemon
    refused = e.what();
  }
  if (!refused.empty()) stats_.frames_refused_total.fetch_add(1, std::memory_order_relaxed);
  if (refused != last_refusal_ && !refused.empty()) {
    log::warn("process frame not stored", {{"err", refused}});
  }
  last_refusal_ = std::move(refused);
  trim_heap_after_shrink(frame);
  stats_.last_duration_ns.store(monotonic_ns() - started, std::memory_order_relaxed);
  stats_.samples.fetch_add(1, std::memory_order_relaxed);
}

// The memory a burst of processes made the tier allocate goes back to the kernel once the tier
// has shrunk (heap_trim.h): first the capacity this thread's own buffers kept, then every free
// page of the allocator's arenas.
void ProcessRecorder::trim_heap_after_shrink(process::ProcessFrame& frame) {
  const std::string_view why =
      heap_trim_.due(frame.processes.size() + frame.sockets.size(), HeapTrim::Clock::now());
  if (why.empty()) return;
  const int64_t started = monotonic_ns();
  frame.processes.shrink_to_fit();
  frame.sockets.shrink_to_fit();
  last_sockets_.shrink_to_fit();
  exited_.shrink_to_fit();
  static_cast<void>(::malloc_trim(0));
  const double seconds = static_cast<double>(monotonic_ns() - started) / 1e9;
  log::info("free memory returned to the kernel",
            {{"after", std::string(why)}, {"seconds", number_text(seconds)}});
}

void ProcessRecorder::read_socket_table(process::ProcessFrame& frame) {
  if (ticks_++ % socket_ticks_ != 0) {
    frame.sockets = last_sockets_;
    return;
  }
  stats_.socket_reads_total.fetch_add(1, std::memory_order_relaxed);
  if (Status read = sockets_->read(frame.sockets); !read) {
    stats_.socket_failures_total.fetch_add(1, std::memory_order_relaxed);
    if (read.error() != last_socket_error_) {
      log::warn("socket table read failed", {{"err", read.error()}});
    }
    last_socket_error_ = std::move(read).error();
  }
  last_sockets_ = frame.sockets;
}

void ProcessRecorder::keep_exited_traffic(process::ProcessFrame& frame) {
  // The backend reports a process's totals once, when it sees it exit; /proc may still show it
  // for a few ticks (a zombie not yet reaped): those rows keep the final totals.
  for (const auto& traffic : reading_.processes) {
    if (traffic.exited) exited_traffic_[traffic.pid] = {traffic.counters, traffic.device};
  }
  if (exited_traffic_.empty()) return;
  std::unordered_map<int32_t, std::pair<network::NetCounters, std::string>> still_shown;
  for (auto& row : frame.processes) {
    const auto it = exited_traffic_.find(row.pid);
    if (it == exited_traffic_.end()) continue;
    if (!row.net) {
      row.net = it->second.first;
      row.net_device = it->second.second;
    }
    still_shown.insert(*it);
  }
  exited_traffic_ = std::move(still_shown);
}

}  // namespace flightrec::recorder
