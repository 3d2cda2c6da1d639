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
  config::Duration rate;
  std::function<std::unique_ptr<Source>()> make;
};

}  // namespace

OpenedSources open_system_sources(const ProcRoot& root, const config::Config::Sources& config) {
  const Candidate candidates[] = {
      {"stat", config.stat.enabled, config.stat.rate, [&] { return make_stat_source(root); }},
      {"cgroup_cpu", config.cgroup_cpu.enabled, config.cgroup_cpu.rate,
       [&] { return make_cgroup_cpu_source(root); }},
      {"meminfo", config.meminfo.enabled, config.meminfo.rate,
       [&] { return make_meminfo_source(root); }},
      {"loadavg", config.loadavg.enabled, config.loadavg.rate,
       [&] { return make_loadavg_source(root); }},
      {"pressure", config.pressure.enabled, config.pressure.rate,
       [&] { return make_pressure_source(root); }},
      {"vmstat", config.vmstat.enabled, config.vmstat.rate,
       [&] { return make_vmstat_source(root); }},
      {"diskstats", config.diskstats.enabled, config.diskstats.rate,
       [&] {
         return make_diskstats_source(root, config.diskstats.filter, config.diskstats.max_keys);
       }},
      {"netdev", config.netdev.enabled, config.netdev.rate,
       [&] { return make_netdev_source(root, config.netdev.filter, config.netdev.max_keys); }},
  };
  OpenedSources opened;
  for (const Candidate& candidate : candidates) {
    if (!candidate.enabled) continue;
    try {
      opened.sources.push_back(candidate.make());
      opened.rates.push_back(candidate.rate);
    } catch (const SourceUnavailable& e) {
      opened.skipped.push_back(std::string(candidate.name) + ": " + e.what());
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(candidate.name) + ": " + e.what());
    }
  }
  return opened;
}

}  // namespace flightrec::sampler
