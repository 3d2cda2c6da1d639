#include <cerrno>

#include "flightrec/common/capabilities.h"
#include "flightrec/ebpf/libbpf_errors.h"

namespace flightrec::ebpf {

std::string permission_note(int code, std::initializer_list<int> needs) {
  const int error = code < 0 ? -code : code;
  if (error != EPERM && error != EACCES) return "";
  if (std::string lacking = capabilities::missing(needs); !lacking.empty()) {
    return ": missing " + lacking;
  }
  // The capabilities are there, yet the kernel refused: they count only in the machine's first
  // user namespace, and a seccomp filter or a security module can refuse bpf() to anyone.
  return " although " + capabilities::names_of(needs) + (needs.size() == 1 ? " is" : " are") +
         " held (held in a user namespace other than the machine's, or refused by a seccomp "
         "filter or a security module)";
}

}  // namespace flightrec::ebpf
