#pragma once
// Serializes prometheus-cpp's metric model (what every prometheus::Collectable returns) as
// Prometheus text 0.0.4 or OpenMetrics 1.0.0. Both formats take the same input; facts that only
// OpenMetrics can carry (unit, created time, exemplars) ride alongside in FamilyExtras.
//
// Label values, HELP texts and exemplar label values are written as valid UTF-8 whatever the input
// holds: each byte that is not part of a well-formed sequence becomes U+FFFD (a process can name
// itself with any bytes, and Prometheus refuses a whole scrape for one invalid one).
//
// Naming convention of the input: a counter family is named as its samples are, with `_total`
// (as prometheus-cpp's registry does). A counter without `_total` still gets it on its samples.
#include <prometheus/metric_family.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "flightrec/exposition/format.h"

namespace flightrec::exposition {

// An OpenMetrics exemplar: one observation behind a counter's value, e.g. the incident that a step
// of flightrec_incidents_total counts, so that a dashboard can link the step to its recording.
struct Exemplar {
  std::vector<prometheus::ClientMetric::Label> labels;
  double value = 1;
  double timestamp_seconds = 0;  // Unix seconds
};

struct FamilyExtras {
  // OpenMetrics "# UNIT" (e.g. "seconds"). Written only when the OpenMetrics family name ends in
  // "_<unit>", as the spec requires; otherwise left out with a warning.
  std::string unit;
  // Seconds since the epoch at which each series began, one per MetricFamily::metric in the same
  // order; written as OpenMetrics `_created` samples for counters, histograms and summaries.
  // Empty means "not known". Any other length is left out with a warning.
  std::vector<double> created_seconds;
  // Exemplars by series index (MetricFamily::metric). OpenMetrics 1.0 allows them on a counter's
  // `_total` sample only here; the label set is at most 128 characters (names and values). Any
  // other is left out with a warning. Text 0.0.4 has no exemplars.
  std::map<size_t, Exemplar> exemplars;
};

// Keyed by MetricFamily::name exactly as the family carries it (counters with `_total`).
using ExtrasByFamily = std::map<std::string, FamilyExtras, std::less<>>;

// Not a Result: the body is served even when something was left out of it.
struct Serialized {
  std::string body;
  // One line per thing that was left out, naming the family: a family whose name repeats an
  // earlier one (dropped, the first wins), a unit that is not a suffix of the name, created
  // times that do not match the series, an exemplar on a series that cannot carry one. Empty
  // when everything was written.
  std::vector<std::string> warnings;
};

// Families are written in the given order. OpenMetrics ends with "# EOF\n"; no timestamps.
Serialized serialize(Format format, const std::vector<prometheus::MetricFamily>& families,
                     const ExtrasByFamily& extras = {});

// Same, into `body` (contents replaced, capacity kept for the next scrape); returns the warnings.
std::vector<std::string> serialize_into(Format format,
                                        const std::vector<prometheus::MetricFamily>& families,
                                        const ExtrasByFamily& extras, std::string& body);

}  // namespace flightrec::exposition
