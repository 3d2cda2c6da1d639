#include "flightrec/exposition/serialize.h"

#include "family_selection.h"
#include "openmetrics_writer.h"
#include "text_writer.h"
#include "valid_text.h"

namespace flightrec::exposition {

std::vector<std::string> serialize_into(Format format,
                                        const std::vector<prometheus::MetricFamily>& families,
                                        const ExtrasByFamily& extras, std::string& body) {
  body.clear();
  // Texts from outside are made valid UTF-8 here, before either writer sees them (valid_text.h).
  const detail::ValidText valid(families, extras);
  auto selection = detail::select_families(valid.families());
  auto warnings = std::move(selection.warnings);
  switch (format) {
    case Format::openmetrics_1_0_0:
      detail::write_openmetrics(selection, valid.extras(), body, warnings);
      break;
    case Format::text_0_0_4:
      // Units and created times have no place in 0.0.4; leaving them out is not a loss to report.
      detail::write_text(valid.families(), selection, body);
      break;
  }
  return warnings;
}

Serialized serialize(Format format, const std::vector<prometheus::MetricFamily>& families,
                     const ExtrasByFamily& extras) {
  Serialized result;
  result.warnings = serialize_into(format, families, extras, result.body);
  return result;
}

}  // namespace flightrec::exposition
