#pragma once
// The application's health routes, /-/healthy and /-/ready. Its other routes are the landing page
// (landing_page.h), made last from all the others, and /-/reload (Daemon::reload_route).
#include <vector>

#include "flightrec/http/route.h"
#include "flightrec/recorder/recorder.h"

namespace flightrec::app {

// /-/ready asks `recorder`, which must outlive the server.
std::vector<http::Route> app_routes(const recorder::Recorder& recorder);

}  // namespace flightrec::app
