#include "raw_terminal.h"

#include <poll.h>
#include <unistd.h>

namespace flightrec::app::detail {

std::optional<RawTerminal> RawTerminal::open() {
  termios saved{};
  if (::isatty(STDIN_FILENO) == 0 || ::tcgetattr(STDIN_FILENO, &saved) != 0) return std::nullopt;
  termios raw = saved;
  // Keys one at a time, unechoed; ISIG stays, so Ctrl-C still interrupts as it did.
  raw.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw.c_cc[VMIN] = 0;
  raw.c_cc[VTIME] = 0;
  if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw) != 0) return std::nullopt;
  return RawTerminal(saved);
}

RawTerminal::RawTerminal(RawTerminal&& other) noexcept : saved_(other.saved_) {
  other.restore_ = false;
}

RawTerminal::~RawTerminal() {
  if (restore_) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_);
}

std::string RawTerminal::keys(std::chrono::milliseconds timeout) {
  // A hung-up terminal polls readable at once, forever: wait without it rather than spin.
  pollfd input{.fd = STDIN_FILENO, .events = POLLIN, .revents = 0};
  if (::poll(&input, hung_up_ ? 0 : 1, static_cast<int>(timeout.count())) <= 0) return {};
  char buffer[64];
  const ssize_t got = ::read(STDIN_FILENO, buffer, sizeof buffer);
  if (got > 0) return std::string(buffer, static_cast<size_t>(got));
  if (got == 0 || (input.revents & (POLLHUP | POLLERR)) != 0) hung_up_ = true;
  return {};
}

}  // namespace flightrec::app::detail
