#pragma once
// Runs curl, a real HTTP client, for the tests that drive a real server on loopback.
#include <string>

namespace flightrec::testing {

// `curl -s -S --max-time SECONDS ARGS`; returns what it printed (stderr included), so a test can
// match bodies, headers (-i) or status codes (-w).
std::string curl(const std::string& args, int max_time_seconds = 10);

}  // namespace flightrec::testing
