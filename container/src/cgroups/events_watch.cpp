#include "flightrec/container/cgroups/events_watch.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

namespace flightrec::container {

Result<EventsWatch> EventsWatch::create() {
  Fd fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
  if (!fd.valid()) {
    return Error{"inotify_init1: " + std::generic_category().message(errno)};
  }
  return EventsWatch(std::move(fd));
}

Result<int> EventsWatch::add(const std::filesystem::path& path) {
  const int watch = ::inotify_add_watch(fd_.get(), path.c_str(), IN_MODIFY);
  if (watch < 0) {
    return Error{"cannot watch " + path.string() + ": " + std::generic_category().message(errno)};
  }
  return watch;
}

void EventsWatch::remove(int watch) { static_cast<void>(::inotify_rm_watch(fd_.get(), watch)); }

std::vector<int> EventsWatch::take_changed() {
  std::vector<int> changed;
  // Aligned as the kernel writes the records; a watch of a file has no name after its record.
  alignas(inotify_event) char buffer[4096];
  for (;;) {
    const ssize_t got = ::read(fd_.get(), buffer, sizeof buffer);
    if (got <= 0) break;  // EAGAIN: all read
    for (ssize_t at = 0; at + static_cast<ssize_t>(sizeof(inotify_event)) <= got;) {
      inotify_event event;
      std::memcpy(&event, buffer + at, sizeof event);
      if ((event.mask & IN_MODIFY) != 0) changed.push_back(event.wd);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event.len);
    }
  }
  std::sort(changed.begin(), changed.end());
  changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
  return changed;
}

}  // namespace flightrec::container
