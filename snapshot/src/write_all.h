#pragma once
#include <string_view>

namespace flightrec::snapshot {

// Writes all of `bytes` to `fd`, retrying short writes and EINTR; returns 0 or the errno.
int write_all(int fd, std::string_view bytes);

}  // namespace flightrec::snapshot
