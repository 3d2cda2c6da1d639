// Feeds arbitrary bytes to the web config parser: it must never crash, hang or throw, and must
// return either a config or at least one error, each naming the file.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "flightrec/http/web_config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto result = flightrec::http::parse_web_config(text, "web.yml", "/etc/flightrec");
  if (result.config.has_value() == !result.errors.empty()) __builtin_trap();
  for (const auto& error : result.errors) {
    if (!error.starts_with("web.yml")) __builtin_trap();
  }
  if (result.config) {
    const auto& tls = result.config->tls;
    if (tls.enabled && (tls.cert_file.empty() || tls.key_file.empty())) __builtin_trap();
    if (tls.min_version > tls.max_version) __builtin_trap();
  }
  return 0;
}
