#pragma once
// The query of a /dump request: its parameter names and its from=/to= window. Shared by /dump and
// the viewer's /dump?format=html page, so both accept and reject the same queries.
#include <cstdint>
#include <string>

#include "flightrec/http/server.h"
#include "flightrec/store/cursor.h"

namespace flightrec::recording {

// Checks that the query names only from, to and format, each once (http/query_check.h), and reads
// from= and to= (time_param.h) into `range`. Returns a message naming the bad parameter for a 400,
// or "" when all is well. format= is left to the caller: /dump and the viewer accept different
// values.
std::string parse_dump_window(const http::Request& request, int64_t now_real_ns,
                              store::TimeRange& range);

}  // namespace flightrec::recording
