#include "flightrec/incidents/routes.h"

#include "flightrec/incidents/handlers.h"

namespace flightrec::incidents {

std::vector<http::Route> incidents_routes(const IncidentStore& store) {
  return {{.path = "/incidents",
           .summary = "the incidents recorded to disk, newest first: JSON, or a page for a browser "
                      "(?format=json|html)",
           .handler = list_handler(store),
           .right = http::Right::read_history},
          {.path = "/incidents/{id...}",
           .summary = "one incident's recording: ?format=raw|json|csv",
           .handler = incident_handler(store),
           .right = http::Right::read_history}};
}

}  // namespace flightrec::incidents
