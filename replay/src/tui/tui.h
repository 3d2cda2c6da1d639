#pragma once
// The ncurses front end of the interactive view.
#include "flightrec/replay/session.h"

namespace flightrec::replay::tui {

// Runs until the user quits; returns the exit status. Needs a terminal on stdin/stdout.
int run(Session& session);

}  // namespace flightrec::replay::tui
