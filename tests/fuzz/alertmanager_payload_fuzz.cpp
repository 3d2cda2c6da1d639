// parse_alert_payload on arbitrary bodies POSTed to /-/trigger/alertmanager: it must never crash,
// and must either give a notification whose alerts all have a fingerprint and a start in int64 ns,
// or one line of error that names a field ("<field>: <what>"). Seed corpus: tests/fixtures/alerts/
// (the alertmanager payloads and the bad ones).
#include <cstddef>
#include <cstdint>
#include <string>

#include "flightrec/trigger/alert_payload.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace flightrec::trigger;
  auto result =
      parse_alert_payload(AlertSource::alertmanager, flightrec::fuzz::as_text(data, size));
  if (!result) {
    if (result.error().empty() || result.error().find(": ") == std::string::npos) __builtin_trap();
    return 0;
  }
  for (const Alert& alert : result->alerts) {
    if (alert.fingerprint.empty()) __builtin_trap();
  }
  return 0;
}
