#pragma once
// The query of a /dump request: its parameter names and its from=/to= window. Checked once by
// /dump for every format it serves, its own and those other components add (DumpView).
#include <cstdint>
#include <string>

#include "flightrec/http/request.h"
#include "flightrec/store/cursor.h"

namespace flightrec::dump {

// Checks that the query names only from, to and format, each once (query_check.h), and reads
// from= and to= (recording/time_param.h) into `range`. Returns a message naming the bad parameter
// for a 400, or "" when all is well. format= is left to the caller.
std::string parse_dump_window(const http::Request& request, int64_t now_real_ns,
                              store::TimeRange& range);

}  // namespace flightrec::dump
