#include "flightrec/sampler/sources/system_sources.h"

#include <functional>
#include <stdexcept>
#include <string_view>

#include "flightrec/sampler/sources/cgroup_cpu.h"
#include "flightrec/sampler/sources/diskstats.h"
#include "flightrec/sampler/sources/loadavg.h"
#include "flightrec/sampler/sources/meminfo.h"
#include "flightrec/sampler/sources/netdev.h"
#include "flightrec/sampler/sources/pressure.h"
#include "flightrec/sampler/sources/stat.h"
#include "flightrec/sampler/sources/vmstat.h"

namespace flightrec::sampler {
namespace {

struct Candidate {
  std::string_view name;
  bool enabled;
  std::function<std::unique_ptr<Source>()> make;
};

}  // namespace

OpenedSources open_system_sources(const ProcRoot& root, const config::Config::Sources& config) {
  const Candidate candidates[] = {
      {"stat", config.stat.enabled, [&] { return make_stat_source(root); }},
      {"cgroup_cpu", config.cgroup_cpu.enabled, [&] { return make_cgroup_cpu_source(root); }},
      {"meminfo", config.meminfo.enabled, [&] { return make_meminfo_source(root); }},
      {"loadavg", config.loadavg.enabled, [&] { return make_loadavg_source(root); }},
      {"pressure", config.pressure.enabled, [&] { return make_pressure_source(root); }},
      {"vmstat", config.vmstat.enabled, [&] { return make_vmstat_source(root); }},
      {"diskstats", config.diskstats.enabled,
       [&] {
         return make_diskstats_source(root, config.diskstats.filter, config.diskstats.max_keys);
       }},
      {"netdev", config.netdev.enabled,
       [&] { return make_netdev_source(root, config.netdev.filter, config.netdev.max_keys); }},
  };
  OpenedSources opened;
  for (const Candidate& candidate : candidates) {
    if (!candidate.enabled) continue;
    try {
      opened.sources.push_back(candidate.make());
    } catch (const SourceUnavailable& e) {
      opened.skipped.push_back(std::string(candidate.name) + ": " + e.what());
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(candidate.name) + ": " + e.what());
    }
  }
  return opened;
}

}  // namespace flightrec::sampler
