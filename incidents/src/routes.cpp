#include "flightrec/incidents/routes.h"

#include "flightrec/incidents/handlers.h"

namespace flightrec::incidents {

std::vector<http::Route> incidents_routes(const IncidentStore& store) {
  return {
      {.path = "/incidents", .handler = list_handler(store), .right = http::Right::read_history},
      {.path = "/incidents/{id...}",
       .handler = incident_handler(store),
       .right = http::Right::read_history}};
}

}  // namespace flightrec::incidents
