#include "flightrec/process/process_backend.h"

#include <stdexcept>
#include <string>
#include <utility>

#include "flightrec/common/log.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/process/task_counter_sampler.h"
#include "flightrec/process/task_iterator.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::process {

std::unique_ptr<ProcessSource> open_process_source(const config::Config& config,
                                                   const sampler::ProcRoot& root) {
  const ProcessSamplerOptions options{.redact_cmdline = config.processes.redact_cmdline,
                                      .max_count = config.processes.max_count};
  const std::string& choice = config.processes.backend;
  std::string why_not;
  if (choice != "procfs") {
    const Status own = sampler::is_own_procfs(root);
    if (!own) why_not = own.error();
    auto reader = own ? make_task_iterator(why_not) : nullptr;
    if (reader) {
      log::info("process backend", {{"backend", "ebpf"}});
      return std::make_unique<TaskCounterSampler>(root, options, std::move(reader), "ebpf");
    }
    if (choice == "ebpf") throw std::runtime_error("processes.backend is ebpf: " + why_not);
  }
  const std::string note = choice == "auto" ? "eBPF unavailable (" + why_not + ")" : "";
  log::info("process backend", {{"backend", "procfs"}, {"note", note}});
  return std::make_unique<ProcessSampler>(root, options);
}

}  // namespace flightrec::process
