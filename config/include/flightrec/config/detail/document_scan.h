#pragma once
// A first pass over the YAML stream, event by event, before building nodes. yaml-cpp 0.7's LoadAll
// never returns on some malformed input (a stray ',' at the top level, as in ",a" or "\"x\",a"):
// the parser yields empty documents forever without consuming the token. This pass drives the same
// parser, notices a document starting where the previous one did, and stops there.
#include <yaml-cpp/mark.h>

#include <optional>
#include <string>

namespace flightrec::config::detail {

struct DocumentScan {
  std::optional<YAML::Mark> stalled_at;        // the parser stopped making progress here
  std::optional<size_t> content_document;      // index of the first document that is not empty
  std::optional<YAML::Mark> extra_content_at;  // start of a second document that is not empty
};

// Throws YAML::Exception on syntax errors, as the loader does.
[[nodiscard]] DocumentScan scan_documents(const std::string& text);

}  // namespace flightrec::config::detail
