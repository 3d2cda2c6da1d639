#include "flightrec/sampler/sources/system_sources.h"

#include <functional>
#include <stdexcept>
#include <string_view>
#include <vector>

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

using Settings = config::SourceSettings;

struct SourceFactory {
  std::string_view name;  // its key under `sources:`
  std::function<std::unique_ptr<Source>(const ProcRoot&, const Settings&)> make;
};

// Every system source, in the order the sampler opens them. Adding one: its factory here and its
// defaults under `sources:` in config/defaults.yaml (a test checks both list the same names).
const std::vector<SourceFactory>& factories() {
  static const std::vector<SourceFactory> all{
      {"stat", [](const ProcRoot& root, const Settings&) { return make_stat_source(root); }},
      {"cgroup_cpu",
       [](const ProcRoot& root, const Settings&) { return make_cgroup_cpu_source(root); }},
      {"meminfo", [](const ProcRoot& root, const Settings&) { return make_meminfo_source(root); }},
      {"loadavg", [](const ProcRoot& root, const Settings&) { return make_loadavg_source(root); }},
      {"pressure",
       [](const ProcRoot& root, const Settings&) { return make_pressure_source(root); }},
      {"vmstat", [](const ProcRoot& root, const Settings&) { return make_vmstat_source(root); }},
      {"diskstats",
       [](const ProcRoot& root, const Settings& settings) {
         return make_diskstats_source(root, settings.keys.value().filter,
                                      settings.keys.value().max_keys);
       }},
      {"netdev",
       [](const ProcRoot& root, const Settings& settings) {
         return make_netdev_source(root, settings.keys.value().filter,
                                   settings.keys.value().max_keys);
       }},
  };
  return all;
}

}  // namespace

std::vector<std::string_view> system_source_names() {
  std::vector<std::string_view> names;
  for (const SourceFactory& factory : factories()) names.push_back(factory.name);
  return names;
}

OpenedSources open_system_sources(const ProcRoot& root, const config::Config::Sources& config) {
  OpenedSources opened;
  for (const SourceFactory& factory : factories()) {
    const auto settings = config.find(factory.name);
    if (settings == config.end()) {
      throw std::logic_error(std::string(factory.name) + ": not declared in config/defaults.yaml");
    }
    if (!settings->second.enabled) continue;
    try {
      opened.sources.push_back(factory.make(root, settings->second));
      opened.rates.push_back(settings->second.rate);
    } catch (const SourceUnavailable& e) {
      opened.skipped.push_back(std::string(factory.name) + ": " + e.what());
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(factory.name) + ": " + e.what());
    }
  }
  return opened;
}

}  // namespace flightrec::sampler
