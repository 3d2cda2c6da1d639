#include "raw_terminal.h"

#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

namespace flightrec::app::detail {
namespace {

// What the job-control handlers need, set while a RawTerminal is open.
termios saved_modes{};
termios raw_modes{};
volatile sig_atomic_t is_open = 0;
volatile sig_atomic_t was_resumed = 0;

// Ctrl-Z: the shell gets the terminal as it was, then the process stops as it would have (the
// raised signal is delivered, with its default action, once this handler returns).
void on_stop(int) {
  const int saved_errno = errno;
  if (is_open != 0) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
  ::signal(SIGTSTP, SIG_DFL);
  ::raise(SIGTSTP);
  errno = saved_errno;
}

// fg: keys one at a time again. Only in the foreground: a background process that sets the
// terminal's modes is stopped again (SIGTTOU), as `bg` would make it.
void on_continue(int) {
  const int saved_errno = errno;
  ::signal(SIGTSTP, on_stop);
  if (is_open != 0 && ::tcgetpgrp(STDIN_FILENO) == ::getpgrp()) {
    ::tcsetattr(STDIN_FILENO, TCSANOW, &raw_modes);
  }
  was_resumed = 1;
  errno = saved_errno;
}

}  // namespace

std::optional<RawTerminal> RawTerminal::open() {
  if (::isatty(STDIN_FILENO) == 0 || ::tcgetattr(STDIN_FILENO, &saved_modes) != 0) {
    return std::nullopt;
  }
  raw_modes = saved_modes;
  // Keys one at a time, unechoed; ISIG stays, so Ctrl-C and Ctrl-Z still work as they did.
  raw_modes.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
  raw_modes.c_cc[VMIN] = 0;
  raw_modes.c_cc[VTIME] = 0;
  if (::tcsetattr(STDIN_FILENO, TCSANOW, &raw_modes) != 0) return std::nullopt;
  is_open = 1;
  ::signal(SIGTSTP, on_stop);
  ::signal(SIGCONT, on_continue);
  return RawTerminal();
}

RawTerminal::RawTerminal(RawTerminal&& other) noexcept : hung_up_(other.hung_up_) {
  other.restore_ = false;
}

RawTerminal::~RawTerminal() {
  if (!restore_) return;
  ::signal(SIGTSTP, SIG_DFL);
  ::signal(SIGCONT, SIG_DFL);
  is_open = 0;
  ::tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
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

bool RawTerminal::resumed() {
  if (was_resumed == 0) return false;
  was_resumed = 0;
  return true;
}

}  // namespace flightrec::app::detail
