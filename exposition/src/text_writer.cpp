#include "text_writer.h"

#include <prometheus/text_serializer.h>

#include <algorithm>
#include <ostream>
#include <streambuf>

#include "escaping.h"

namespace flightrec::exposition::detail {
namespace {

// Lets TextSerializer, which writes to a std::ostream, append straight into the caller's string.
class StringAppendBuffer : public std::streambuf {
 public:
  explicit StringAppendBuffer(std::string& out) : out_(out) {}

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) out_ += traits_type::to_char_type(c);
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_.append(s, static_cast<std::size_t>(n));
    return n;
  }

 private:
  std::string& out_;
};

// prometheus-cpp 1.0.1 writes HELP verbatim (a backslash or newline in it breaks the exposition)
// and counter names as given (the samples of a counter named without `_total` would differ
// from the OpenMetrics ones). These are the two things we correct before handing over.
bool needs_rewrite(const prometheus::MetricFamily& family) {
  return text_help_needs_escaping(family.help) || counter_lacks_total_suffix(family);
}

prometheus::MetricFamily rewritten(const prometheus::MetricFamily& family) {
  prometheus::MetricFamily copy = family;
  copy.help = escape_text_help(family.help);
  if (counter_lacks_total_suffix(family)) copy.name += kTotalSuffix;
  return copy;
}

}  // namespace

void write_text(const std::vector<prometheus::MetricFamily>& all, const FamilySelection& selection,
                std::string& out) {
  StringAppendBuffer buffer(out);
  std::ostream stream(&buffer);
  const prometheus::TextSerializer serializer;

  const bool as_is =
      selection.kept.size() == all.size() && std::none_of(all.begin(), all.end(), needs_rewrite);
  if (as_is) {
    serializer.Serialize(stream, all);
    return;
  }
  std::vector<prometheus::MetricFamily> corrected;
  corrected.reserve(selection.kept.size());
  for (const auto* family : selection.kept) {
    corrected.push_back(needs_rewrite(*family) ? rewritten(*family) : *family);
  }
  serializer.Serialize(stream, corrected);
}

}  // namespace flightrec::exposition::detail
