#pragma once
// The incident index for people: GET /incidents as HTML when a browser asks for it (handlers.h
// negotiates), and the newest incidents on the landing page. Newest first, each incident's kind,
// rule or alert, what it was about, its value as a person reads it (model/value_text.h), when it
// fired, and where to go next: the viewer, the file, and the `flightrec replay` command line.
// Everything a rule, an alert or a client named is escaped (common/html_escape.h).
#include <cstddef>
#include <string>
#include <vector>

#include "flightrec/http/request.h"
#include "flightrec/incidents/incident.h"

namespace flightrec::incidents {

// Where the replay command line fetches from, and as whom.
struct ReplayTarget {
  // "https://node1:9717": the scheme the client reached us by and the Host it asked for;
  // "http://HOST:PORT" when the Host header is missing or is not a host[:port].
  std::string origin;
  std::string user;  // the basic-auth user the page was asked by, "" when none
};

// From the request: Request::secure(), its Host header and user.
ReplayTarget replay_target(const http::Request& request);

// The whole page of GET /incidents, `entries` as IncidentStore::list() gives them (newest first).
std::string incidents_page_html(const std::vector<IncidentEntry>& entries,
                                const ReplayTarget& target);

// The landing page's section: the newest `count` incidents with their viewer links, and a link to
// the whole list.
std::string newest_incidents_html(const std::vector<IncidentEntry>& entries, size_t count);

}  // namespace flightrec::incidents
