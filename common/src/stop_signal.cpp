#include "flightrec/common/stop_signal.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <system_error>

namespace flightrec {

StopSignal::StopSignal() : fd_(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {
  if (!fd_) throw std::system_error(errno, std::generic_category(), "eventfd");
}

void StopSignal::request() noexcept {
  requested_.store(true, std::memory_order_release);
  const uint64_t one = 1;
  [[maybe_unused]] const auto n = ::write(fd_.get(), &one, sizeof one);
}

}  // namespace flightrec
