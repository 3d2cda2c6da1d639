#pragma once
// The query of a /dump request: its parameter names and its from=/to= window. Checked once by
// /dump for every format it serves, its own and those other components add (DumpView).
#include <cstdint>
#include <string>

#include "flightrec/common/result.h"
#include "flightrec/http/request.h"
#include "flightrec/store/cursor.h"

namespace flightrec::dump {

// Checks that the query names only from, to and format, each once (query_check.h), and reads
// from= and to= (recording/time_param.h): the window they give (all of time where neither is
// given), or the error naming the bad parameter, for a 400. format= is left to the caller.
Result<store::TimeRange> parse_dump_window(const http::Request& request, int64_t now_real_ns);

}  // namespace flightrec::dump
