#include "flightrec/sampler/sampler_backend.h"

#include <stdexcept>
#include <string>

#include "flightrec/common/log.h"
#include "flightrec/sampler/ebpf_kernel_ticks.h"

namespace flightrec::sampler {
namespace {

// The most CPUs `auto` takes the in-kernel tick for. Each firing reads every CPU's counters at
// ~2.3 us a CPU (plus ~3.7 us), measured on this 2-vCPU VM (docs/PERFORMANCE.md "The sampler's
// CPU tick taken in the kernel"): at 16 CPUs ~40 us a tick, 1 % of a core at 4 ms, about what the
// thread's own timer and reads cost; beyond, the timer is cheaper. `ebpf` takes it at any count.
constexpr size_t kAutoMaxCpus = 16;

// The in-kernel tick at `period`, or why the sampler does not take it under `choice`.
Result<std::unique_ptr<KernelTicks>> start_kernel_ticks(std::chrono::nanoseconds period,
                                                        const std::string& choice,
                                                        const sampler::ProcRoot& root) {
  // The kernel's counters are the live machine's: a fixture tree must be read as files.
  if (const Status own = sampler::check_own_procfs(root); !own) return Error{own.error()};
  auto ticks = sampler::make_kernel_ticks(period, root.procfs.string());
  if (ticks && choice == "auto" && (*ticks)->cpu_count() > kAutoMaxCpus) {
    return Error{std::to_string((*ticks)->cpu_count()) +
                 " CPUs: reading every CPU at every tick costs " +
                 "more than the procfs timer above " + std::to_string(kAutoMaxCpus) +
                 " (set sampler.backend: ebpf to take it anyway)"};
  }
  return ticks;
}

}  // namespace

void choose_sampler_backend(sampler::Sampler& sampler, const config::Config& cfg,
                            const sampler::ProcRoot& root) {
  const std::string& choice = cfg.sampler.backend;
  std::string why_not;
  if (choice != "procfs") {
    auto ticks = start_kernel_ticks(sampler.rate(), choice, root);
    if (ticks) {
      sampler.use_kernel_ticks(*std::move(ticks));
      log::info("sampler backend", {{"backend", "ebpf"}});
      return;
    }
    if (choice == "ebpf") throw std::runtime_error("sampler.backend is ebpf: " + ticks.error());
    why_not = ticks.error();
  }
  const std::string note = choice == "auto" ? "eBPF not used (" + why_not + ")" : "";
  log::info("sampler backend", {{"backend", "procfs"}, {"note", note}});
}

}  // namespace flightrec::sampler
