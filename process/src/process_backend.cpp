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
namespace {

// The eBPF task iterator, or why it cannot read `root`'s processes.
Result<std::unique_ptr<TaskCounterReader>> open_task_iterator(const sampler::ProcRoot& root) {
  if (const Status own = sampler::check_own_procfs(root); !own) return Error{own.error()};
  return make_task_iterator();
}

}  // namespace

std::unique_ptr<ProcessSource> open_process_source(const config::Config& config,
                                                   const sampler::ProcRoot& root) {
  const ProcessSamplerOptions options{.redact_cmdline = config.processes.redact_cmdline,
                                      .max_count = config.processes.max_count};
  const std::string& choice = config.processes.backend;
  std::string why_not;
  if (choice != "procfs") {
    auto reader = open_task_iterator(root);
    if (reader) {
      log::info("process backend", {{"backend", "ebpf"}});
      return std::make_unique<TaskCounterSampler>(root, options, *std::move(reader), "ebpf");
    }
    if (choice == "ebpf") throw std::runtime_error("processes.backend is ebpf: " + reader.error());
    why_not = reader.error();
  }
  const std::string note = choice == "auto" ? "eBPF unavailable (" + why_not + ")" : "";
  log::info("process backend", {{"backend", "procfs"}, {"note", note}});
  return std::make_unique<ProcessSampler>(root, options);
}

}  // namespace flightrec::process
