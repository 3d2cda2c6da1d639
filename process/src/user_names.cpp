#include "flightrec/process/user_names.h"

#include <pwd.h>
#include <unistd.h>

#include <cerrno>
#include <vector>

namespace flightrec::process {

std::optional<std::string> lookup_user_name(uint32_t uid) {
  const long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(suggested > 0 ? static_cast<size_t>(suggested) : 1024);
  // Entries larger than the suggested size exist (long GECOS fields); grow, but not forever.
  constexpr size_t kMaxBuffer = 1 << 20;
  for (;;) {
    passwd entry{};
    passwd* found = nullptr;
    const int error = ::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found);
    if (error == ERANGE && buffer.size() < kMaxBuffer) {
      buffer.resize(buffer.size() * 2);
      continue;
    }
    if (error != 0 || found == nullptr) return std::nullopt;
    return std::string(found->pw_name);
  }
}

const std::string& UserNames::name(uint32_t uid) {
  const auto cached = cache_.find(uid);
  if (cached != cache_.end()) return cached->second;
  std::optional<std::string> found = lookup_(uid);
  return cache_.emplace(uid, found ? std::move(*found) : std::to_string(uid)).first->second;
}

}  // namespace flightrec::process
