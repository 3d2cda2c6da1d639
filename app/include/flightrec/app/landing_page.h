#pragma once
// The landing page `/`: what this is, its version, and every endpoint the daemon serves (pattern,
// methods, summary and the role it needs), listed from the routes themselves so that it names
// exactly what the router answers. tests/e2e/endpoint_docs.sh reads it to check docs/SECURITY.md.
#include <string>
#include <vector>

#include "flightrec/http/route.h"

namespace flightrec::app {

// The page listing `routes` in their order: a link for each path a browser can GET as it is, the
// pattern as text for the others.
[[nodiscard]] std::string landing_page_html(const std::vector<http::Route>& routes);

// The route `/` itself, whose page lists it first and then `routes` (the router's, in the order
// added), rendered once: the routes are fixed when the server starts.
[[nodiscard]] http::Route landing_page_route(const std::vector<http::Route>& routes);

}  // namespace flightrec::app
