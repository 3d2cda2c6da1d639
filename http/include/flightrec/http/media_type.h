#pragma once
// Which of the representations a route can serve the client prefers, from its Accept header
// (RFC 9110 12.5.1), for routes that answer people and programs alike (/incidents: HTML for a
// browser, JSON for curl and scripts). A pure function of the header text: an empty, malformed or
// unmatched header gets no choice, and the route serves its default.
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace flightrec::http {

// The index in `offered` (media types such as "application/json", "text/html", the route's default
// first) of the one the client ranks highest. Each offer gets the q of the most specific range
// covering it (type/subtype, then type/*, then */*; parameters other than q are ignored); q=0
// refuses it. Equal q goes to the offer named by the more specific range, then to the range
// listed first, then to the offer listed first: "*/*" alone picks offered[0], a browser's
// "text/html,...,*/*;q=0.8" picks text/html. nullopt when the header accepts none of them.
[[nodiscard]] std::optional<std::size_t> preferred_media_type(
    std::string_view accept_header, std::span<const std::string_view> offered);

}  // namespace flightrec::http
