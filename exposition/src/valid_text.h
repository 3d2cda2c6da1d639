#pragma once
// Every text a scrape writes that can come from outside flightrec (a process's name, a device's, an
// incident id, a rule's name) is made valid UTF-8 here, once, before either writer sees it.
// Prometheus refuses a whole scrape for one invalid byte ("invalid UTF-8 label value"), so one
// process that names itself with a 0xFF byte would otherwise take down every series of the node.
//
// This is done at serialization rather than where families are made because serialize_into() is
// the one way every family reaches a body: collectors build families in several ways (Families'
// helpers, whole families, the raw vector), and the writers are called from nowhere else.
//
// Invalid bytes become U+FFFD, one per byte, as in /dump. Control characters are valid UTF-8 and
// both of Prometheus's parsers take them in label values, so they stay: a value means the same in
// PromQL as in /dump. The writers escape newline, quote and backslash, as each format says.
// Family and label names are not touched: they come from flightrec's code, not from outside.
#include <prometheus/metric_family.h>

#include <vector>

#include "flightrec/exposition/serialize.h"

namespace flightrec::exposition::detail {

// The families and extras to write: the input itself when its label values, HELP texts and
// exemplar label values are all valid UTF-8 (the common case: nothing is copied), otherwise a
// copy with each of them made valid.
class ValidText {
 public:
  ValidText(const std::vector<prometheus::MetricFamily>& families, const ExtrasByFamily& extras);
  ValidText(const ValidText&) = delete;
  ValidText& operator=(const ValidText&) = delete;

  [[nodiscard]] const std::vector<prometheus::MetricFamily>& families() const noexcept {
    return *families_;
  }
  [[nodiscard]] const ExtrasByFamily& extras() const noexcept { return *extras_; }

 private:
  std::vector<prometheus::MetricFamily> repaired_families_;
  ExtrasByFamily repaired_extras_;
  const std::vector<prometheus::MetricFamily>* families_;
  const ExtrasByFamily* extras_;
};

}  // namespace flightrec::exposition::detail
