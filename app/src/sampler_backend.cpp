#include "sampler_backend.h"

#include <stdexcept>
#include <string>

#include "flightrec/common/log.h"
#include "flightrec/network/kernel_ticks.h"

namespace flightrec::app {

void choose_sampler_backend(sampler::Sampler& sampler, const config::Config& cfg,
                            const sampler::ProcRoot& root) {
  const std::string& choice = cfg.sampler.backend;
  std::string why_not;
  if (choice != "procfs") {
    // The kernel's counters are the live machine's: a fixture tree must be read as files.
    auto ticks = sampler::is_own_procfs(root, why_not)
                     ? network::make_kernel_ticks(sampler.rate(), root.procfs.string(), why_not)
                     : nullptr;
    if (ticks) {
      sampler.use_kernel_ticks(std::move(ticks));
      log::info("sampler backend", {{"backend", "ebpf"}});
      return;
    }
    if (choice == "ebpf") throw std::runtime_error("sampler.backend is ebpf: " + why_not);
  }
  const std::string note = choice == "auto" ? "eBPF unavailable (" + why_not + ")" : "";
  log::info("sampler backend", {{"backend", "procfs"}, {"note", note}});
}

}  // namespace flightrec::app
