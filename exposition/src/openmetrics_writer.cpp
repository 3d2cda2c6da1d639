#include "openmetrics_writer.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>
#include <vector>

#include "escaping.h"
#include "flightrec/common/enum_names.h"
#include "numbers.h"

namespace flightrec::exposition::detail {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

// What `# TYPE` says for each of prometheus-cpp's types; its untyped is OpenMetrics' unknown.
constexpr EnumName<MetricType> kTypeNames[] = {{MetricType::Counter, "counter"},
                                               {MetricType::Gauge, "gauge"},
                                               {MetricType::Summary, "summary"},
                                               {MetricType::Histogram, "histogram"},
                                               {MetricType::Untyped, "unknown"}};
static_assert(names_are_distinct(kTypeNames));

bool can_have_created(MetricType type) {
  return type == MetricType::Counter || type == MetricType::Histogram ||
         type == MetricType::Summary;
}

// One sample line: name, the metric's labels plus an optional `le`/`quantile`, and the value.
class SampleWriter {
 public:
  SampleWriter(std::string& out, std::string_view family_name, const ClientMetric& metric)
      : out_(out), family_name_(family_name), metric_(metric) {}

  template <typename Number>
  void write(std::string_view suffix, Number value, const Exemplar* exemplar = nullptr) {
    begin(suffix);
    close_labels(!metric_.label.empty());
    finish(value, exemplar);
  }

  template <typename Number>
  void write_with_bound(std::string_view suffix, std::string_view bound_label, double bound,
                        Number value) {
    begin(suffix);
    out_ += metric_.label.empty() ? "{" : ",";
    out_ += bound_label;
    out_ += "=\"";
    append_canonical(out_, bound);
    out_ += '"';
    close_labels(true);
    finish(value);
  }

 private:
  void begin(std::string_view suffix) {
    out_ += family_name_;
    out_ += suffix;
    append_label_pairs(metric_.label, "{");
  }

  // `name="value"` pairs joined by commas, the first preceded by `first_separator`.
  void append_label_pairs(const std::vector<ClientMetric::Label>& labels,
                          const char* first_separator) {
    const char* separator = first_separator;
    for (const auto& label : labels) {
      out_ += separator;
      out_ += label.name;
      out_ += "=\"";
      append_escaped(out_, label.value);
      out_ += '"';
      separator = ",";
    }
  }

  void close_labels(bool any) {
    if (any) out_ += '}';
  }

  template <typename Number>
  void finish(Number value, const Exemplar* exemplar = nullptr) {
    out_ += ' ';
    append_value(out_, value);
    if (exemplar != nullptr) append_exemplar(*exemplar);
    out_ += '\n';
  }

  // ` # {labels} value timestamp` after the sample's value.
  void append_exemplar(const Exemplar& exemplar) {
    out_ += " # {";
    append_label_pairs(exemplar.labels, "");
    out_ += "} ";
    append_value(out_, exemplar.value);
    out_ += ' ';
    append_value(out_, exemplar.timestamp_seconds);
  }

  std::string& out_;
  std::string_view family_name_;
  const ClientMetric& metric_;
};

void write_histogram(SampleWriter& sample, const ClientMetric::Histogram& histogram) {
  bool has_infinite_bucket = false;
  for (const auto& bucket : histogram.bucket) {
    sample.write_with_bound("_bucket", "le", bucket.upper_bound, bucket.cumulative_count);
    has_infinite_bucket = bucket.upper_bound == std::numeric_limits<double>::infinity();
  }
  // prometheus-cpp's own histograms keep +Inf implicit; OpenMetrics requires the bucket.
  if (!has_infinite_bucket) {
    sample.write_with_bound("_bucket", "le", std::numeric_limits<double>::infinity(),
                            histogram.sample_count);
  }
  sample.write("_count", histogram.sample_count);
  sample.write("_sum", histogram.sample_sum);
}

void write_summary(SampleWriter& sample, const ClientMetric::Summary& summary) {
  for (const auto& quantile : summary.quantile) {
    sample.write_with_bound("", "quantile", quantile.quantile, quantile.value);
  }
  sample.write("_count", summary.sample_count);
  sample.write("_sum", summary.sample_sum);
}

void write_metric(SampleWriter& sample, MetricType type, const ClientMetric& metric,
                  const Exemplar* exemplar) {
  switch (type) {
    case MetricType::Counter:
      sample.write(kTotalSuffix, metric.counter.value, exemplar);
      return;
    case MetricType::Gauge:
      sample.write("", metric.gauge.value);
      return;
    case MetricType::Histogram:
      write_histogram(sample, metric.histogram);
      return;
    case MetricType::Summary:
      write_summary(sample, metric.summary);
      return;
    case MetricType::Untyped:
      sample.write("", metric.untyped.value);
      return;
  }
}

void write_metadata(std::string& out, std::string_view keyword, std::string_view name,
                    std::string_view text) {
  out += "# ";
  out += keyword;
  out += ' ';
  out += name;
  out += ' ';
  out += text;
  out += '\n';
}

// The unit to declare, or empty when there is none or it may not be declared for this name.
std::string_view declared_unit(std::string_view name, const FamilyExtras* extras,
                               std::vector<std::string>& warnings) {
  if (extras == nullptr || extras->unit.empty()) return {};
  const std::string_view unit = extras->unit;
  if (name.size() > unit.size() && name.ends_with(unit) &&
      name[name.size() - unit.size() - 1] == '_') {
    return unit;
  }
  warnings.push_back("family '" + std::string(name) + "': unit '" + extras->unit +
                     "' is not a suffix of the name; # UNIT left out");
  return {};
}

// The created times to write (one per metric), or nullptr when there are none to write.
const std::vector<double>* usable_created(const MetricFamily& family, const FamilyExtras* extras,
                                          std::vector<std::string>& warnings) {
  if (extras == nullptr || extras->created_seconds.empty()) return nullptr;
  const auto& created = extras->created_seconds;
  if (!can_have_created(family.type)) {
    warnings.push_back("family '" + family.name + "': a " +
                       std::string(name_of(kTypeNames, family.type)) +
                       " has no created time; _created left out");
    return nullptr;
  }
  if (created.size() != family.metric.size()) {
    warnings.push_back("family '" + family.name + "': " + std::to_string(created.size()) +
                       " created times for " + std::to_string(family.metric.size()) +
                       " series; _created left out");
    return nullptr;
  }
  return &created;
}

// UTF-8 characters, not bytes: the spec bounds an exemplar's label set in characters.
size_t character_count(std::string_view text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;
  }));
}

// The spec's bound on an exemplar's label names and values together.
constexpr size_t kMaxExemplarLabelCharacters = 128;

// The exemplars to write, by series index; each one that cannot be written is left out with a
// warning.
std::map<size_t, Exemplar> usable_exemplars(const MetricFamily& family, const FamilyExtras* extras,
                                            std::vector<std::string>& warnings) {
  std::map<size_t, Exemplar> usable;
  if (extras == nullptr) return usable;
  for (const auto& [index, exemplar] : extras->exemplars) {
    size_t characters = 0;
    for (const auto& label : exemplar.labels) {
      characters += character_count(label.name) + character_count(label.value);
    }
    std::string problem;
    if (family.type != MetricType::Counter) {
      problem = "a " + std::string(name_of(kTypeNames, family.type)) + " cannot carry one";
    } else if (index >= family.metric.size()) {
      problem = "series " + std::to_string(index) + " of " + std::to_string(family.metric.size());
    } else if (characters > kMaxExemplarLabelCharacters) {
      problem = "its labels have " + std::to_string(characters) + " characters, at most " +
                std::to_string(kMaxExemplarLabelCharacters);
    }
    if (problem.empty()) {
      usable.emplace(index, exemplar);
    } else {
      warnings.push_back("family '" + family.name + "': exemplar left out: " + problem);
    }
  }
  return usable;
}

void write_family(std::string& out, const MetricFamily& family, const FamilyExtras* extras,
                  std::vector<std::string>& warnings) {
  const auto name = openmetrics_family_name(family);
  write_metadata(out, "TYPE", name, name_of(kTypeNames, family.type));
  if (const auto unit = declared_unit(name, extras, warnings); !unit.empty()) {
    write_metadata(out, "UNIT", name, unit);
  }
  if (!family.help.empty()) {
    out += "# HELP ";
    out += name;
    out += ' ';
    append_escaped(out, family.help);
    out += '\n';
  }
  const auto* created = usable_created(family, extras, warnings);
  const auto exemplars = usable_exemplars(family, extras, warnings);
  for (std::size_t i = 0; i < family.metric.size(); ++i) {
    SampleWriter sample(out, name, family.metric[i]);
    const auto exemplar = exemplars.find(i);
    write_metric(sample, family.type, family.metric[i],
                 exemplar == exemplars.end() ? nullptr : &exemplar->second);
    if (created != nullptr) sample.write("_created", (*created)[i]);
  }
}

}  // namespace

void write_openmetrics(const FamilySelection& selection, const ExtrasByFamily& extras,
                       std::string& out, std::vector<std::string>& warnings) {
  for (const auto* family : selection.kept) {
    const auto found = extras.find(family->name);
    write_family(out, *family, found == extras.end() ? nullptr : &found->second, warnings);
  }
  out += "# EOF\n";
}

}  // namespace flightrec::exposition::detail
