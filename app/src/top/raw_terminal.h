#pragma once
// The terminal as `flightrec top` reads keys from it: non-canonical (a key arrives without
// Enter) and without echo, as top and htop set it, restored when this object goes away. top's
// SIGINT, SIGTERM and SIGHUP handlers only ask the loop to stop, so the restore runs on those too.
// Ctrl-Z gives the shell its terminal back before the process stops, and `fg` takes it again.
// One at a time: the job-control handlers keep the modes in static storage.
#include <termios.h>

#include <chrono>
#include <optional>
#include <string>

namespace flightrec::app::detail {

class RawTerminal {
 public:
  // Standard input in non-canonical mode without echo; nullopt when it is not a terminal.
  static std::optional<RawTerminal> open();
  RawTerminal(const RawTerminal&) = delete;
  RawTerminal& operator=(const RawTerminal&) = delete;
  RawTerminal(RawTerminal&& other) noexcept;
  RawTerminal& operator=(RawTerminal&&) = delete;
  ~RawTerminal();

  // The keys pressed before `timeout` passes: returns as soon as there is one, empty when none
  // came or a signal interrupted the wait. Once the terminal hung up it only waits.
  [[nodiscard]] std::string keys(std::chrono::milliseconds timeout);
  // Whether the process was stopped and continued since the last call: the shell wrote over the
  // screen, which wants drawing again.
  [[nodiscard]] bool resumed();

 private:
  RawTerminal() = default;
  bool restore_ = true;
  bool hung_up_ = false;
};

}  // namespace flightrec::app::detail
