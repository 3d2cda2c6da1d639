#include "app_routes.h"

#include "flightrec/http/request.h"

namespace flightrec::app {
namespace {

constexpr std::string_view kText = "text/plain; charset=utf-8";

}  // namespace

std::vector<http::Route> app_routes(const recorder::Recorder& recorder) {
  return {
      {.path = "/-/healthy",
       .summary = "200 while the process runs, for a liveness probe",
       .handler = [](const http::Request&,
                     http::Response& res) { res.send(200, kText, "flightrec is healthy.\n"); },
       .right = http::Right::anyone},
      {.path = "/-/ready",
       .summary = "200 once a frame is recorded, 503 before, for a readiness probe",
       .handler =
           [&recorder](const http::Request&, http::Response& res) {
             if (recorder.frames_recorded() > 0) {
               res.send(200, kText, "flightrec is ready.\n");
             } else {
               res.send(503, kText, "flightrec has recorded no frame yet.\n");
             }
           },
       .right = http::Right::anyone},
  };
}

}  // namespace flightrec::app
