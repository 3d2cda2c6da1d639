#include "curl.h"

#include <cstdio>
#include <stdexcept>

namespace flightrec::testing {

std::string curl(const std::string& args, int max_time_seconds) {
  const std::string command =
      "curl -s -S --max-time " + std::to_string(max_time_seconds) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot run curl");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  pclose(pipe);
  return out;
}

}  // namespace flightrec::testing
