#include "flightrec/process/pid_allocation_watch.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <charconv>
#include <string>

namespace flightrec::process {

std::optional<int64_t> parse_loadavg_last_pid(std::string_view loadavg) {
  while (!loadavg.empty() && (loadavg.back() == '\n' || loadavg.back() == ' ')) {
    loadavg.remove_suffix(1);
  }
  const size_t space = loadavg.rfind(' ');
  if (space == std::string_view::npos || loadavg.find('/') == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view field = loadavg.substr(space + 1);
  int64_t pid = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), pid);
  if (error != std::errc{} || end != field.data() + field.size() || pid < 0) return std::nullopt;
  return pid;
}

PidAllocationWatch::PidAllocationWatch(const std::filesystem::path& procfs) {
  std::array<char, 32> self{};
  const std::string link = (procfs / "self").string();
  const ssize_t n = ::readlink(link.c_str(), self.data(), self.size() - 1);
  if (n <= 0 ||
      std::string_view(self.data(), static_cast<size_t>(n)) != std::to_string(::getpid())) {
    return;
  }
  loadavg_ = Fd(::open((procfs / "loadavg").c_str(), O_RDONLY | O_CLOEXEC));
}

bool PidAllocationWatch::maybe_new_pids() {
  if (!loadavg_.valid()) return true;
  std::array<char, 128> text{};
  const ssize_t n = ::pread(loadavg_.get(), text.data(), text.size(), 0);
  const auto last_pid =
      n > 0 ? parse_loadavg_last_pid(std::string_view(text.data(), static_cast<size_t>(n)))
            : std::nullopt;
  if (!last_pid) {
    last_pid_.reset();
    return true;
  }
  const bool changed = last_pid != last_pid_;
  last_pid_ = last_pid;
  return changed;
}

}  // namespace flightrec::process
