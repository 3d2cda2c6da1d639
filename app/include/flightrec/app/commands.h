#pragma once
// One function per command; each returns the process exit status.
#include "flightrec/app/cli.h"

namespace flightrec::app {

int run_daemon(const Command& command);
int run_snapshot(const Command& command);
int run_check_config(const Command& command);
int run_dump(const Command& command);
int run_incidents(const Command& command);

}  // namespace flightrec::app
