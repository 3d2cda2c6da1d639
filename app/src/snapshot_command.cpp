#include <time.h>

#include <iostream>

#include "flightrec/app/commands.h"
#include "flightrec/app/setup.h"
#include "flightrec/common/log.h"
#include "flightrec/process/cmdline_redactor.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/snapshot/output_file.h"
#include "flightrec/snapshot/render.h"
#include "flightrec/snapshot/snapshot.h"

namespace flightrec::app {

int run_snapshot(const Command& command) {
  const Setup setup = load_setup(command);
  if (!setup.config) {
    for (const auto& error : setup.errors) std::cerr << error << '\n';
    return 1;
  }
  const sampler::ProcRoot root = proc_root_of(command);
  auto opened = sampler::open_system_sources(root, setup.config->sources);
  for (const auto& reason : opened.skipped) log::debug("source skipped", {{"reason", reason}});
  sampler::Sampler sampler(std::move(opened.sources), setup.config->sampler.rate);
  std::vector<int64_t> values(sampler.schema().size());
  sampler.sample_once(values);

  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  // The pattern compiled when the configuration was checked.
  const process::CmdlineRedactor redactor(setup.config->processes.redact_cmdline);
  const auto shot =
      snapshot::take_snapshot(root, redactor, sampler.schema(), values,
                              static_cast<int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec);
  for (const auto& error : shot.errors) log::warn("snapshot incomplete", {{"err", error}});

  const std::string text =
      command.format == "json" ? snapshot::render_json(shot) : snapshot::render_text(shot);
  if (!command.output) {
    std::cout << text;  // main reports a failed write to standard output
    return 0;
  }
  const auto written = snapshot::write_output_file(*command.output, text);
  if (!written.ok()) {
    std::cerr << "flightrec snapshot: " << written.error() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace flightrec::app
