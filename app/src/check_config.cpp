#include <iostream>

#include "flightrec/app/commands.h"
#include "flightrec/app/rule_signals.h"
#include "flightrec/app/setup.h"
#include "flightrec/common/log.h"
#include "flightrec/common/printable.h"
#include "flightrec/config/loader.h"
#include "flightrec/config/trigger_rules.h"
#include "flightrec/config/units.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"

namespace flightrec::app {
namespace {

// The rules' signal names against this host's sources, as the daemon's start-up would find them.
std::vector<std::string> check_rule_signals(const Command& command, const config::Config& config,
                                            const std::string& origin) {
  try {
    auto opened = sampler::open_system_sources(proc_root_of(command), config.sources);
    const sampler::Sampler sampler(std::move(opened.sources), config.sampler.rate);
    return unknown_rule_signals(config, sampler.schema(), origin);
  } catch (const std::exception& e) {
    // The file is still checked; only the names are not.
    log::warn("rule signal names not checked: this host's sources could not be opened",
              {{"err", e.what()}});
    return {};
  }
}

}  // namespace

int run_check_config(const Command& command) {
  if (command.print_defaults) {
    std::cout << config::embedded_defaults_yaml();
    return 0;
  }
  config::LoadResult result;
  if (command.argument) {
    result = config::load_from_file(*command.argument);
  } else {
    std::optional<std::filesystem::path> explicit_path;
    if (command.config_file) explicit_path = *command.config_file;
    result = config::load_with_lookup(explicit_path);
  }
  // The file's name as given, which may hold any byte: the errors escape theirs already.
  const std::string origin = escape_unprintable(result.origin, Newlines::escape);
  if (result.ok()) {
    for (auto& error : check_rule_signals(command, *result.config, origin)) {
      result.errors.push_back(std::move(error));
    }
  }
  if (!result.errors.empty()) {
    for (const auto& error : result.errors) std::cerr << error << '\n';
    std::cerr << origin << ": " << result.errors.size() << " error"
              << (result.errors.size() == 1 ? "" : "s") << '\n';
    return 1;
  }
  std::cout << origin << ": OK\n";
  // What each rule compares, as its incidents will say it: a rule's `over` and `for` read back.
  for (const config::TriggerRule& rule : result.config->triggers) {
    std::cout << "  rule " << rule.name << ": "
              << escape_unprintable(config::condition_text(rule), Newlines::escape);
    if (rule.hold > config::Duration::zero()) {
      std::cout << " for " << config::format_duration(rule.hold);
    }
    std::cout << '\n';
  }
  return 0;
}

}  // namespace flightrec::app
