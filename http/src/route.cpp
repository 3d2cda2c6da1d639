#include "flightrec/http/route.h"

namespace flightrec::http {

std::string_view right_name(Right right) {
  switch (right) {
    case Right::anyone:
      return "anyone";
    case Right::read_metrics:
      return "read_metrics";
    case Right::read_history:
      return "read_history";
    case Right::capture:
      return "capture";
  }
  return "capture";  // not reached: the switch names every Right
}

}  // namespace flightrec::http
