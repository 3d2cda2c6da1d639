#pragma once
// Query parameters of every route: a parameter a route does not know, or one given twice, is a
// 400, never silently ignored: a typo such as ?fromat=csv would otherwise
// answer with the default format.
#include <initializer_list>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::http {

// Success when every parameter in `query` (the raw query string) is one of `allowed` and none
// comes twice; otherwise the error, e.g. `unknown parameter "x" (allowed: format)`, with the name
// quoted by quote_for_error. Names are compared as sent (still URL-encoded), as
// http::Request::param finds them.
[[nodiscard]] Status check_query_names(std::string_view query,
                                       std::initializer_list<std::string_view> allowed);

}  // namespace flightrec::http
