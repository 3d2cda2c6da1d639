#pragma once
// The application's own routes: / (the landing page), /-/healthy and /-/ready.
#include <vector>

#include "flightrec/http/route.h"
#include "flightrec/recorder/recorder.h"

namespace flightrec::app {

// /-/ready asks `recorder`, which must outlive the server.
std::vector<http::Route> app_routes(const recorder::Recorder& recorder);

}  // namespace flightrec::app
