// Loads sampler/bpf/cpu_ticks.bpf.c from the skeleton embedded at build time, puts it on a perf
// cpu-clock timer of the first online CPU, checks its first record against /proc/stat and hands
// the sampler its records.
#include <exception>
#include <optional>

#include "flightrec/sampler/ebpf_kernel_ticks.h"
#include "flightrec/sampler/file_reader.h"

#if FLIGHTREC_HAVE_EBPF
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#include "cpu_tick_record.h"
#include "cpu_ticks.skel.h"
#include "flightrec/common/clock.h"
#include "flightrec/common/fd.h"
#include "flightrec/ebpf/libbpf_errors.h"
#include "flightrec/sampler/cpu_list.h"
#include "kernel_tick_check.h"
#include "percpu_offsets.h"
#endif

namespace flightrec::sampler {

#if FLIGHTREC_HAVE_EBPF
namespace {

using std::chrono::nanoseconds;
using namespace std::chrono_literals;

static_assert(sizeof(sampler::KernelCpuTimes) == sizeof(flightrec_tick_cpu) &&
                  std::is_trivially_copyable_v<sampler::KernelCpuTimes>,
              "a record's CPU entries are copied into the batch as they are");

// How long undrained ticks wait in the ring before firings are dropped (and counted as lost):
// far longer than the sampler leaves between drains, and it bounds the ring.
constexpr nanoseconds kRingSpan = 2s;
// A ring above this (thousands of CPUs at a sub-millisecond period) is refused.
constexpr uint64_t kMaxRingBytes = 64 << 20;
constexpr uint64_t kRingRecordHeaderBytes = 8;  // BPF_RINGBUF_HDR_SZ
// The first record must arrive within this (or three periods) of attaching the timer.
constexpr nanoseconds kFirstTickWait = 200ms;

// The live kernel's CPUs: the program runs in this kernel whatever proc root the check reads.
constexpr const char* kPossibleCpus = "/sys/devices/system/cpu/possible";
constexpr const char* kOnlineCpus = "/sys/devices/system/cpu/online";

struct CpuLayout {
  uint32_t count = 0;  // highest possible CPU id + 1
  std::array<uint64_t, FLIGHTREC_TICK_MAX_CPUS / 64> possible{};
  uint32_t timer_cpu = 0;  // the first online CPU
};

Result<std::vector<uint32_t>> read_cpu_list(const char* path) {
  std::string text;
  try {
    text = sampler::read_file(path);
  } catch (const std::exception& failure) {
    return Error{failure.what()};
  }
  auto ids = sampler::parse_cpu_list(text, FLIGHTREC_TICK_MAX_CPUS - 1);
  if (!ids) {
    return Error{std::string(path) + ": " + ids.error() +
                 " (the kernel tick serves CPU ids below " +
                 std::to_string(FLIGHTREC_TICK_MAX_CPUS) + ")"};
  }
  return ids;
}

Result<CpuLayout> read_cpu_layout() {
  const auto possible = read_cpu_list(kPossibleCpus);
  if (!possible) return Error{possible.error()};
  CpuLayout layout;
  layout.count = possible->back() + 1;
  for (const uint32_t id : *possible) layout.possible.at(id / 64) |= uint64_t{1} << (id % 64);
  const auto online = read_cpu_list(kOnlineCpus);
  if (!online) return Error{online.error()};
  layout.timer_cpu = online->front();
  return layout;
}

struct RingSize {
  uint64_t ring_bytes = 0;
  uint64_t max_pending_bytes = 0;  // kRingSpan of records
};

Result<RingSize> size_ring(nanoseconds period, uint64_t record_bytes) {
  const uint64_t slot = (record_bytes + kRingRecordHeaderBytes + 7) / 8 * 8;
  const auto ticks = static_cast<uint64_t>((kRingSpan + period - 1ns) / period);
  RingSize out;
  out.max_pending_bytes = ticks * slot;
  if (out.max_pending_bytes + slot > kMaxRingBytes) {
    return Error{"holding 2 s of kernel ticks at this period would take " +
                 std::to_string((out.max_pending_bytes + slot) >> 20) +
                 " MiB of ring buffer (limit " + std::to_string(kMaxRingBytes >> 20) + " MiB)"};
  }
  out.ring_bytes = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  while (out.ring_bytes < out.max_pending_bytes + slot) out.ring_bytes *= 2;
  return out;
}

std::string describe_refused(const flightrec_tick_head& head) {
  const std::string cpu = "CPU " + std::to_string(head.bad_cpu);
  switch (head.status) {
    case FLIGHTREC_TICK_NO_RUNQUEUE:
      return "the task running on " + cpu +
             " led to no runqueue (a kernel without CONFIG_FAIR_GROUP_SCHED?)";
    case FLIGHTREC_TICK_NO_ANCHOR:
      return "the per-CPU map gave no address for " + cpu;
    case FLIGHTREC_TICK_CPU_MISMATCH:
      return "the runqueue at " + cpu + "'s computed per-CPU address is not " + cpu +
             "'s: the kernel's per-CPU layout is not what its BTF says";
    case FLIGHTREC_TICK_READ_FAILED:
      return cpu + "'s kernel_cpustat or tick_sched could not be read at its computed address";
    default:
      return "unknown record status " + std::to_string(head.status);
  }
}

class CpuTickProgram final : public sampler::KernelTicks {
 public:
  CpuTickProgram(nanoseconds period, uint32_t cpu_count)
      : period_(period),
        cpu_count_(cpu_count),
        record_bytes_(sizeof(flightrec_tick_head) + cpu_count * sizeof(flightrec_tick_cpu)) {
    pending_.cpu_count = cpu_count;
  }
  CpuTickProgram(const CpuTickProgram&) = delete;
  CpuTickProgram& operator=(const CpuTickProgram&) = delete;
  CpuTickProgram(CpuTickProgram&&) = delete;
  CpuTickProgram& operator=(CpuTickProgram&&) = delete;
  ~CpuTickProgram() override {
    ring_buffer__free(ring_);
    bpf_link__destroy(link_);  // stops the timer and closes it
    if (skeleton_ != nullptr) cpu_ticks_bpf::destroy(skeleton_);
  }

  // Loads the program for `layout` and `offsets`, attaches it to its timer and opens its ring.
  Status start(const CpuLayout& layout, const detail::PerCpuOffsets& offsets) {
    ebpf::capture_libbpf_messages();
    skeleton_ = cpu_ticks_bpf::open();
    if (skeleton_ == nullptr) {
      return Error{ebpf::describe_libbpf_failure("opening the BPF object cpu_ticks.bpf.o", errno)};
    }
    const auto sized = size_ring(period_, record_bytes_);
    if (!sized) return Error{sized.error()};
    const RingSize& ring = *sized;
    auto* settings = skeleton_->rodata;
    settings->runqueues_offset = offsets.runqueues;
    settings->kernel_cpustat_offset = offsets.kernel_cpustat;
    settings->tick_cpu_sched_offset = offsets.tick_cpu_sched;
    settings->cpu_count = cpu_count_;
    for (size_t word = 0; word < layout.possible.size(); ++word) {
      settings->possible_cpus[word] = layout.possible[word];
    }
    settings->max_pending_bytes = ring.max_pending_bytes;
    if (const int code =
            bpf_map__set_max_entries(skeleton_->maps.ticks, static_cast<__u32>(ring.ring_bytes));
        code != 0) {
      return Error{ebpf::describe_libbpf_failure("sizing BPF ring buffer ticks", code)};
    }
    if (const int code = cpu_ticks_bpf::load(skeleton_); code != 0) {
      return Error{
          ebpf::describe_libbpf_failure("loading the BPF program of cpu_ticks.bpf.o", code)};
    }
    timer_cpu_ = layout.timer_cpu;
    if (Status attached = attach_timer(layout.timer_cpu); !attached) return attached;
    ring_ = ring_buffer__new(bpf_map__fd(skeleton_->maps.ticks), on_record, this, nullptr);
    if (ring_ == nullptr) {
      return Error{ebpf::describe_libbpf_failure("opening BPF ring buffer ticks", errno)};
    }
    return {};
  }

  // Waits for the first record and compares it with /proc/stat read right after. The records
  // read here are the first drain's.
  Status check_first_tick(sampler::FileReader& stat) {
    const auto deadline = std::chrono::steady_clock::now() + std::max(kFirstTickWait, 3 * period_);
    while (pending_.heads.empty()) {
      consume(pending_);
      if (refused_.load(std::memory_order_relaxed) > 0) {
        return Error{"the kernel tick's record is invalid: " + describe_refused(first_refused_)};
      }
      if (!pending_.heads.empty()) break;
      if (std::chrono::steady_clock::now() > deadline) {
        return Error{"no kernel tick recorded within " +
                     std::to_string(std::max(kFirstTickWait, 3 * period_) / 1ms) +
                     " ms of starting its timer"};
      }
      std::this_thread::sleep_for(1ms);
    }
    std::string_view text;
    if (!stat.read(text)) {
      return Error{"cannot read " + stat.path().string() + ": " +
                   std::strerror(stat.errno_value())};
    }
    const size_t newest = pending_.heads.size() - 1;
    const Status agreed = detail::check_against_proc_stat(
        text, pending_.cpus_of(newest), clock_ns(CLOCK_MONOTONIC) - pending_.heads[newest].mono_ns,
        1'000'000'000 / ::sysconf(_SC_CLK_TCK));
    if (!agreed) {
      return Error{"the kernel tick disagrees with " + stat.path().string() + ": " +
                   agreed.error()};
    }
    return {};
  }

  [[nodiscard]] nanoseconds period() const noexcept override { return period_; }
  [[nodiscard]] size_t cpu_count() const noexcept override { return cpu_count_; }
  [[nodiscard]] uint32_t timer_cpu() const noexcept override { return timer_cpu_; }

  void wake_every(uint32_t ticks) noexcept override {
    __atomic_store_n(&skeleton_->bss->wake_every, ticks, __ATOMIC_RELAXED);
  }
  // The ring's own epoll set: the program's forced wake-ups make it readable.
  [[nodiscard]] int wait_fd() const noexcept override { return ring_buffer__epoll_fd(ring_); }

  void drain(sampler::KernelTickBatch& out) override {
    out.clear();
    out.cpu_count = cpu_count_;
    if (!pending_.heads.empty()) {
      out.heads.insert(out.heads.end(), pending_.heads.begin(), pending_.heads.end());
      out.cpu_times.insert(out.cpu_times.end(), pending_.cpu_times.begin(),
                           pending_.cpu_times.end());
      pending_.clear();
    }
    consume(out);
  }

  // Dropped firings (ring full), and records that could not find every CPU's counters: both are
  // ticks the sampler did not get.
  [[nodiscard]] uint64_t lost() const noexcept override {
    return __atomic_load_n(&skeleton_->bss->dropped, __ATOMIC_RELAXED) +
           refused_.load(std::memory_order_relaxed);
  }

 private:
  Status attach_timer(uint32_t cpu) {
    perf_event_attr attr{};
    attr.type = PERF_TYPE_SOFTWARE;
    attr.size = sizeof(attr);
    attr.config = PERF_COUNT_SW_CPU_CLOCK;
    attr.sample_period = static_cast<__u64>(period_.count());
    attr.disabled = 1;  // libbpf enables it once the program is attached
    Fd timer(static_cast<int>(::syscall(SYS_perf_event_open, &attr, -1, static_cast<int>(cpu), -1,
                                        PERF_FLAG_FD_CLOEXEC)));
    if (!timer) {
      const int code = errno;
      return Error{"opening a perf cpu-clock timer on CPU " + std::to_string(cpu) + ": " +
                   std::strerror(code) + ebpf::permission_note(code, {CAP_PERFMON})};
    }
    link_ = bpf_program__attach_perf_event(skeleton_->progs.record_tick, timer.get());
    if (link_ == nullptr) {
      return Error{ebpf::describe_libbpf_failure(
          "attaching BPF program record_tick to the cpu-clock timer", errno)};
    }
    static_cast<void>(timer.release());  // the link closes it
    return {};
  }

  void consume(sampler::KernelTickBatch& out) {
    sink_ = &out;
    // Fails only when on_record does, which it never does.
    static_cast<void>(ring_buffer__consume(ring_));
    sink_ = nullptr;
  }

  static int on_record(void* context, void* data, size_t size) {
    auto* self = static_cast<CpuTickProgram*>(context);
    // The program writes one size, the loader's; anything else would be a program/reader mismatch.
    if (size < self->record_bytes_) return 0;
    flightrec_tick_head head{};
    std::memcpy(&head, data, sizeof(head));
    if (head.status != FLIGHTREC_TICK_OK) {
      if (self->refused_.fetch_add(1, std::memory_order_relaxed) == 0) self->first_refused_ = head;
      return 0;
    }
    sampler::KernelTickBatch& out = *self->sink_;
    out.heads.push_back({.mono_ns = static_cast<int64_t>(head.mono_ns),
                         .context_switches = head.context_switches,
                         .running = head.running,
                         .blocked = head.blocked});
    const size_t at = out.cpu_times.size();
    out.cpu_times.resize(at + self->cpu_count_);
    std::memcpy(out.cpu_times.data() + at, static_cast<const char*>(data) + sizeof(head),
                self->cpu_count_ * sizeof(flightrec_tick_cpu));
    return 0;
  }

  nanoseconds period_;
  uint32_t cpu_count_;
  uint32_t timer_cpu_ = 0;
  uint64_t record_bytes_;
  cpu_ticks_bpf* skeleton_ = nullptr;
  bpf_link* link_ = nullptr;
  ring_buffer* ring_ = nullptr;
  sampler::KernelTickBatch* sink_ = nullptr;  // set during consume()
  sampler::KernelTickBatch pending_;          // the start-up check's ticks, for the first drain
  std::atomic<uint64_t> refused_{0};
  flightrec_tick_head first_refused_{};  // what the first refused record said
};

}  // namespace

Result<std::unique_ptr<sampler::KernelTicks>> make_kernel_ticks(std::chrono::nanoseconds period,
                                                                const std::string& proc_root) {
  std::optional<sampler::FileReader> stat;
  try {
    stat.emplace(proc_root + "/stat");
  } catch (const std::exception& failure) {
    return Error{failure.what()};
  }
  if (period <= nanoseconds::zero()) return Error{"the kernel tick needs a positive period"};
  const auto layout = read_cpu_layout();
  if (!layout) return Error{layout.error()};
  const auto offsets = detail::find_percpu_offsets();
  if (!offsets) return Error{offsets.error()};
  auto ticks = std::make_unique<CpuTickProgram>(period, layout->count);
  if (Status started = ticks->start(*layout, *offsets); !started) return Error{started.error()};
  if (Status checked = ticks->check_first_tick(*stat); !checked) return Error{checked.error()};
  return std::unique_ptr<sampler::KernelTicks>(std::move(ticks));
}

#else

Result<std::unique_ptr<sampler::KernelTicks>> make_kernel_ticks(std::chrono::nanoseconds /*period*/,
                                                                const std::string& /*proc_root*/) {
  return Error{FLIGHTREC_EBPF_UNAVAILABLE};
}

#endif

}  // namespace flightrec::sampler
