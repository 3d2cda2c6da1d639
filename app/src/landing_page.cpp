#include "flightrec/app/landing_page.h"

#include <algorithm>
#include <string_view>

#include "flightrec/common/html_escape.h"
#include "flightrec/common/version.h"
#include "flightrec/config/roles.h"
#include "flightrec/http/access.h"
#include "flightrec/http/request.h"

namespace flightrec::app {
namespace {

// A link only where following it works: a path without parameters that answers GET.
bool linkable(const http::Route& route) {
  return route.path.find('{') == std::string::npos &&
         std::find(route.methods.begin(), route.methods.end(), "GET") != route.methods.end();
}

std::string methods_text(const std::vector<std::string>& methods) {
  std::string text;
  for (const auto& method : methods) {
    if (!text.empty()) text += ", ";
    text += method;
  }
  return text;
}

// The role under the default access policy (docs/SECURITY.md, "Roles"), then the right the route
// names: "metrics (read_metrics)", "none (anyone)".
std::string role_text(http::Right right) {
  const auto role = http::needed_role(right, http::AccessPolicy{});
  const std::string_view name = role ? config::role_name(*role) : "none";
  return std::string(name) + " (" + std::string(http::right_name(right)) + ")";
}

// One line per route: tests/e2e/endpoint_docs.sh reads the rows line by line.
std::string row(const http::Route& route) {
  const std::string path = escape_html(route.path);
  const std::string endpoint =
      linkable(route) ? "<a href=\"" + path + "\">" + path + "</a>" : "<code>" + path + "</code>";
  return "<tr><td>" + endpoint + "</td><td>" + methods_text(route.methods) + "</td><td>" +
         escape_html(route.summary) + "</td><td>" + role_text(route.right) + "</td></tr>\n";
}

// The page in two parts, around where a section of the request's own goes.
struct PageParts {
  std::string before;
  std::string after;
};

PageParts page_parts(const std::vector<http::Route>& routes) {
  PageParts parts;
  parts.before = R"(<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>flightrec</title>
<link rel="icon" href="data:,"></head>
<body>
<h1>flightrec</h1>
<p>A millisecond flight recorder for Linux. Version )" +
                 escape_html(kVersion) + R"(.</p>
)";
  parts.after = R"(<h2>Endpoints</h2>
<table>
<tr><th>endpoint</th><th>methods</th><th>what it serves</th><th>role (right)</th></tr>
)";
  for (const auto& route : routes) parts.after += row(route);
  parts.after += R"(</table>
<p>Roles are granted by <code>web.roles</code> and <code>web.anonymous_roles</code>; the health
endpoints need <code>metrics</code> with <code>web.open_health: false</code> (docs/SECURITY.md).</p>
</body>
</html>
)";
  return parts;
}

}  // namespace

std::string landing_page_html(const std::vector<http::Route>& routes, std::string_view section) {
  const PageParts parts = page_parts(routes);
  return parts.before + std::string(section) + parts.after;
}

http::Route landing_page_route(const std::vector<http::Route>& routes, LandingSection section) {
  http::Route landing{
      .path = "/",
      .summary =
          "this page: every endpoint, its methods and the role it needs; the newest incidents",
      .right = http::Right::read_metrics};
  std::vector<http::Route> listed{landing};
  listed.insert(listed.end(), routes.begin(), routes.end());
  landing.handler = [parts = page_parts(listed), section = std::move(section)](
                        const http::Request& request, http::Response& response) {
    const std::string own = section ? section(request) : std::string();
    response.send(200, "text/html; charset=utf-8", parts.before + own + parts.after,
                  {{"Cache-Control", "no-store"}});
  };
  return landing;
}

}  // namespace flightrec::app
