#pragma once
// The landing page `/`: what this is, its version, and every endpoint the daemon serves (pattern,
// methods, summary and the role it needs), listed from the routes themselves so that it names
// exactly what the router answers. tests/e2e/endpoint_docs.sh reads it to check docs/SECURITY.md.
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/http/request.h"
#include "flightrec/http/route.h"

namespace flightrec::app {

// HTML of the page's own for one request, shown above the endpoints (the newest incidents, to a
// client that may read them); "" for none.
using LandingSection = std::function<std::string(const http::Request&)>;

// The page listing `routes` in their order: a link for each path a browser can GET as it is, the
// pattern as text for the others; `section` above them.
[[nodiscard]] std::string landing_page_html(const std::vector<http::Route>& routes,
                                            std::string_view section = {});

// The route `/` itself, whose page lists it first and then `routes` (the router's, in the order
// added), rendered once: the routes are fixed when the server starts. `section`, when given, is
// asked on each request.
[[nodiscard]] http::Route landing_page_route(const std::vector<http::Route>& routes,
                                             LandingSection section = {});

}  // namespace flightrec::app
