// Which Content-Length and Transfer-Encoding fields frame a body one way only.
#include "flightrec/http/body_framing.h"

#include <catch2/catch.hpp>

using flightrec::http::check_body_framing;

TEST_CASE("shouldTakeOneContentLengthOfDigitsOrOneTransferEncoding", "[http][framing]") {
  CHECK(check_body_framing({}, {}).ok());
  CHECK(check_body_framing({"0"}, {}).ok());
  CHECK(check_body_framing({"1048576"}, {}).ok());
  CHECK(check_body_framing({" 5\t"}, {}).ok());  // the whitespace around a value is not its own
  CHECK(check_body_framing({}, {"chunked"}).ok());
}

TEST_CASE("shouldRefuseAContentLengthThatIsNotDigitsAlone", "[http][framing]") {
  CHECK(check_body_framing({"+5"}, {}).error() ==
        "Content-Length \"+5\" is not a number of bytes (digits only)");
  CHECK(check_body_framing({"-1"}, {}).error() ==
        "Content-Length \"-1\" is not a number of bytes (digits only)");
  CHECK(check_body_framing({"5, 5"}, {}).error() ==
        "Content-Length \"5, 5\" is not a number of bytes (digits only)");
  CHECK(check_body_framing({"0x10"}, {}).error() ==
        "Content-Length \"0x10\" is not a number of bytes (digits only)");
  CHECK(check_body_framing({""}, {}).error() ==
        "Content-Length \"\" is not a number of bytes (digits only)");
  CHECK(check_body_framing({"1234567890123456789"}, {}).error() ==
        "Content-Length \"1234567890123456789\" is more digits than any body has");
}

TEST_CASE("shouldRefuseABodyFramedMoreThanOneWay", "[http][framing]") {
  CHECK(check_body_framing({"5", "10"}, {}).error() ==
        "Content-Length given twice (\"5\", \"10\"); send it once");
  CHECK(check_body_framing({"5", "5"}, {}).error() ==
        "Content-Length given twice (\"5\", \"5\"); send it once");
  CHECK(check_body_framing({"1", "2", "3"}, {}).error() ==
        "Content-Length given 3 times (\"1\", \"2\", \"3\"); send it once");
  CHECK(check_body_framing({}, {"identity", "chunked"}).error() ==
        "Transfer-Encoding given twice; send it once");
  CHECK(check_body_framing({"5"}, {"chunked"}).error() ==
        "both Content-Length and Transfer-Encoding: the body's end is given two ways; send one");
}
