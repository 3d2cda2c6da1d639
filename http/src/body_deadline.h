#pragma once
// The deadline on reading one request body. civetweb bounds each read by its request timeout
// only while nothing arrives, so a client that trickles its body holds the worker for as long
// as it likes. While a BodyDeadline lives, one timer thread watches it, and once it passes
// shuts the connection's socket for reading (shutdown SHUT_RD): civetweb's read in progress
// returns what it has and every later one returns at once, so the reader sees its deadline
// passed. The answer can still be written; the router then closes the connection.
#include <chrono>
#include <cstdint>

namespace flightrec::http::detail {

class BodyDeadline {
 public:
  using Clock = std::chrono::steady_clock;
  // Watches `fd` (the connection's, from connection_table(); -1: nothing to watch) until
  // `deadline`. The descriptor must stay open while this lives.
  BodyDeadline(int fd, Clock::time_point deadline);
  // After this returns the timer no longer touches the descriptor.
  ~BodyDeadline();
  BodyDeadline(const BodyDeadline&) = delete;
  BodyDeadline& operator=(const BodyDeadline&) = delete;

 private:
  uint64_t id_ = 0;  // 0: not armed
};

}  // namespace flightrec::http::detail
