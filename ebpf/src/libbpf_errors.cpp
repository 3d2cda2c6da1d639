#if FLIGHTREC_HAVE_EBPF
#include "flightrec/ebpf/libbpf_errors.h"

#include <bpf/libbpf.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "flightrec/common/log.h"

namespace flightrec::ebpf {
namespace {

thread_local std::string last_libbpf_warning;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"  // libbpf hands us its own format strings
int forward_libbpf_message(libbpf_print_level level, const char* format, va_list args) {
  if (level == LIBBPF_DEBUG) return 0;
  char line[512];
  const int length = std::vsnprintf(line, sizeof(line), format, args);
  std::string text(length < 0 ? "" : line);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  // libbpf prefixes its own messages with "libbpf: "; describe_libbpf_failure adds that once.
  if (text.starts_with("libbpf: ")) text.erase(0, 8);
  if (level == LIBBPF_WARN) last_libbpf_warning = text;
  log::debug("libbpf", {{"message", text}});
  return length;
}
#pragma GCC diagnostic pop

}  // namespace

void capture_libbpf_messages() {
  libbpf_set_print(forward_libbpf_message);
  last_libbpf_warning.clear();
}

std::string describe_libbpf_failure(std::string_view step, int code,
                                    std::initializer_list<int> needs) {
  std::string text(step);
  text += ": ";
  text += std::strerror(code < 0 ? -code : code);
  text += permission_note(code, needs);
  if (!last_libbpf_warning.empty()) text += " (libbpf: " + last_libbpf_warning + ")";
  return text;
}

}  // namespace flightrec::ebpf
#endif
