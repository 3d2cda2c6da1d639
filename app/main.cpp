// flightrec's entry point: parse the command line, run one command, and be the only place where
// an unexpected exception is caught (logged, exit 1) instead of terminating the process, and where
// a failed write to standard output is reported (exit 1), whichever command wrote.
#include <unistd.h>

#include <exception>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/app/cli.h"
#include "flightrec/app/commands.h"
#include "flightrec/app/standard_output.h"
#include "flightrec/app/top.h"
#include "flightrec/common/log.h"
#include "flightrec/replay/run.h"

namespace {

int run(const flightrec::app::Command& command) {
  using namespace flightrec::app;
  try {
    switch (command.kind) {
      case CommandKind::help:
        std::cout << usage_text(command.help_for);
        return 0;
      case CommandKind::version:
        std::cout << version_text();
        return 0;
      case CommandKind::daemon:
        return run_daemon(command);
      case CommandKind::snapshot:
        return run_snapshot(command);
      case CommandKind::check_config:
        return run_check_config(command);
      case CommandKind::dump:
        return run_dump(command);
      case CommandKind::incidents:
        return run_incidents(command);
      case CommandKind::top: {
        const auto top = parse_top_args(command.command_args);
        if (!top) {
          std::cerr << "flightrec: " << top.error() << '\n';
          return 2;
        }
        if (top->help) {
          std::cout << usage_text(CommandKind::top);
          return 0;
        }
        return run_top(top->options, command);
      }
      case CommandKind::replay: {
        const std::vector<std::string_view> replay_args(command.command_args.begin(),
                                                        command.command_args.end());
        return flightrec::replay::replay_command(replay_args, std::cout, std::cerr);
      }
    }
  } catch (const std::exception& e) {
    flightrec::log::error("fatal", {{"err", e.what()}});
    return 1;
  }
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace flightrec::app;
  const std::vector<std::string> args(argv + 1, argv + argc);
  const auto parsed = parse_command_line(args);
  if (!parsed) {
    std::cerr << "flightrec: " << parsed.error() << '\n';
    return 2;
  }
  CheckedOutput output(std::cout, STDOUT_FILENO);
  return output.finish(run(*parsed), std::cerr);
}
