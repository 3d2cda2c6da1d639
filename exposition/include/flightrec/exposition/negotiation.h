#pragma once
// HTTP content negotiation for /metrics: which format (Accept; whether to gzip is
// http::accepts_gzip). A pure function of the header text, so any header, including an
// empty or malformed one, gets an answer; the answer for anything unrecognised is the safe default.
#include <string_view>

#include "flightrec/exposition/format.h"

namespace flightrec::exposition {

// The format the client ranks higher: each format gets the q of the most specific media range
// covering it (application/openmetrics-text with version 1.0.0, 0.0.1 or none; text/plain with
// version 0.0.4, 1.0.0 or none; type/*; */*). q=0 refuses a format. Equal q goes to the format
// named explicitly rather than through a wildcard, then to the one listed first; "*/*" alone,
// an empty header and anything unreadable get text 0.0.4.
Format negotiate(std::string_view accept_header);

}  // namespace flightrec::exposition
