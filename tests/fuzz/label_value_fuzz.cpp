// Arbitrary bytes as a label value, a HELP text and an exemplar label value (a process's name is
// whatever bytes the process chose: prctl PR_SET_NAME), through serialize in both formats: the
// body must be valid UTF-8 whatever the bytes, keep one line per sample (the value cannot split
// it), and give back the value, once its escapes are read, with each invalid byte as U+FFFD.
// Seed corpus: process names seen and hostile ones (escape sequences, 0xFF, cut sequences).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/common/utf8.h"
#include "flightrec/exposition/serialize.h"
#include "fuzz_check.h"

namespace exposition = flightrec::exposition;
using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

namespace {

// The gauge whose comm label and HELP are the input, and a counter whose exemplar carries it.
std::vector<MetricFamily> families_of(const std::string& text) {
  ClientMetric process;
  process.label = {{"pid", "1"}, {"comm", text}};
  process.gauge.value = 1;
  ClientMetric incidents;
  incidents.counter.value = 1;
  return {{"flightrec_top_process_cpu_ratio", text, MetricType::Gauge, {process}},
          {"flightrec_incidents_total", "Incidents.", MetricType::Counter, {incidents}}};
}

// The comm label's value as written, its escapes (\\, \", \n) read back; traps on any other.
// The sample is found at the start of a line: HELP (the same text) may hold the same characters.
std::string comm_read_back(std::string_view body) {
  constexpr std::string_view kStart = "\nflightrec_top_process_cpu_ratio{pid=\"1\",comm=\"";
  const size_t start = body.find(kStart);
  if (start == std::string_view::npos) __builtin_trap();
  std::string value;
  for (size_t i = start + kStart.size(); i < body.size(); ++i) {
    if (body[i] == '"') return value;
    if (body[i] == '\n') __builtin_trap();
    if (body[i] != '\\') {
      value += body[i];
      continue;
    }
    if (++i == body.size()) __builtin_trap();
    if (body[i] == 'n') {
      value += '\n';
    } else if (body[i] == '\\' || body[i] == '"') {
      value += body[i];
    } else {
      __builtin_trap();
    }
  }
  __builtin_trap();
}

void check(exposition::Format format, const std::string& text, size_t lines) {
  exposition::ExtrasByFamily extras;
  extras["flightrec_incidents_total"].exemplars.emplace(
      0, exposition::Exemplar{.labels = {{"incident_id", text}}, .value = 1});
  const std::string body = exposition::serialize(format, families_of(text), extras).body;
  if (!flightrec::is_valid_utf8(body)) __builtin_trap();
  if (static_cast<size_t>(std::count(body.begin(), body.end(), '\n')) != lines) __builtin_trap();
  if (comm_read_back(body) != flightrec::valid_utf8(text)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(flightrec::fuzz::as_text(data, size));
  // HELP (left out when empty), TYPE and one sample per family; OpenMetrics adds # EOF.
  const size_t lines = text.empty() ? 5 : 6;
  check(exposition::Format::text_0_0_4, text, lines);
  check(exposition::Format::openmetrics_1_0_0, text, lines + 1);
  return 0;
}
