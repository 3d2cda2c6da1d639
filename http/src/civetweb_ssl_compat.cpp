#include "civetweb_ssl_compat.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <mutex>

#include "flightrec/common/fd.h"

namespace flightrec::http::detail {

extern const unsigned char kSslCompatObject[];
extern const std::size_t kSslCompatObjectSize;

namespace {

std::string load_once() {
  // From memory rather than a file next to the binary, so nothing has to be installed with it.
  Fd memory(::memfd_create("libssl.so", MFD_CLOEXEC));
  if (!memory) return std::string("memfd_create: ") + std::strerror(errno);
  size_t written = 0;
  while (written < kSslCompatObjectSize) {
    const ssize_t n =
        ::write(memory.get(), kSslCompatObject + written, kSslCompatObjectSize - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return std::string("writing the libssl shim: ") + std::strerror(errno);
    written += static_cast<size_t>(n);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(memory.get());
  // Never closed: civetweb's "libssl.so" is this object for the rest of the process.
  if (::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    const char* why = ::dlerror();
    return std::string("loading the libssl shim: ") + (why != nullptr ? why : "unknown error");
  }
  return {};
}

}  // namespace

std::string load_civetweb_ssl_compat() {
  static std::once_flag once;
  static std::string error;
  std::call_once(once, [] { error = load_once(); });
  return error;
}

}  // namespace flightrec::http::detail
