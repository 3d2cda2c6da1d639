#pragma once
// check-config's check of the rules' signal names, so that a typo is found before the daemon
// refuses to start on it (docs/TRIGGERS.md, "Signals").
#include <string>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/sampler/series.h"

namespace flightrec::app {

// One error per system rule of `config` whose signal is neither a derived signal's name (any of
// them, whether this host has it or not: check-config may run elsewhere than the daemon) nor a
// raw series of `schema`, this host's; with the nearest name as a did-you-mean. Labels are not
// checked: devices and CPUs differ from host to host. `origin` is the config file's name.
[[nodiscard]] std::vector<std::string> unknown_rule_signals(const config::Config& config,
                                                            const sampler::Schema& schema,
                                                            const std::string& origin);

}  // namespace flightrec::app
