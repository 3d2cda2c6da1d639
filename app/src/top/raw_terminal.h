#pragma once
// The terminal as `flightrec top` reads keys from it: non-canonical (a key arrives without
// Enter) and without echo, as top and htop set it, restored when this object goes away. top's
// SIGINT, SIGTERM and SIGHUP handlers only ask the loop to stop, so the restore runs on those too.
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

 private:
  explicit RawTerminal(const termios& saved) : saved_(saved) {}
  termios saved_{};
  bool restore_ = true;
  bool hung_up_ = false;
};

}  // namespace flightrec::app::detail
