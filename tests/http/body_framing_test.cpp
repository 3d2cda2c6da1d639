// Which Content-Length and Transfer-Encoding fields frame a body one way only.
#include "flightrec/http/body_framing.h"

#include <catch2/catch.hpp>

using flightrec::http::framing_refusal;

TEST_CASE("shouldTakeOneContentLengthOfDigitsOrOneTransferEncoding", "[http][framing]") {
  CHECK(framing_refusal({}, {}).empty());
  CHECK(framing_refusal({"0"}, {}).empty());
  CHECK(framing_refusal({"1048576"}, {}).empty());
  CHECK(framing_refusal({" 5\t"}, {}).empty());  // the whitespace around a value is not its own
  CHECK(framing_refusal({}, {"chunked"}).empty());
}

TEST_CASE("shouldRefuseAContentLengthThatIsNotDigitsAlone", "[http][framing]") {
  CHECK(framing_refusal({"+5"}, {}) ==
        "Content-Length \"+5\" is not a number of bytes (digits only)");
  CHECK(framing_refusal({"-1"}, {}) ==
        "Content-Length \"-1\" is not a number of bytes (digits only)");
  CHECK(framing_refusal({"5, 5"}, {}) ==
        "Content-Length \"5, 5\" is not a number of bytes (digits only)");
  CHECK(framing_refusal({"0x10"}, {}) ==
        "Content-Length \"0x10\" is not a number of bytes (digits only)");
  CHECK(framing_refusal({""}, {}) == "Content-Length \"\" is not a number of bytes (digits only)");
  CHECK(framing_refusal({"1234567890123456789"}, {}) ==
        "Content-Length \"1234567890123456789\" is more digits than any body has");
}

TEST_CASE("shouldRefuseABodyFramedMoreThanOneWay", "[http][framing]") {
  CHECK(framing_refusal({"5", "10"}, {}) ==
        "Content-Length given twice (\"5\", \"10\"); send it once");
  CHECK(framing_refusal({"5", "5"}, {}) ==
        "Content-Length given twice (\"5\", \"5\"); send it once");
  CHECK(framing_refusal({"1", "2", "3"}, {}) ==
        "Content-Length given 3 times (\"1\", \"2\", \"3\"); send it once");
  CHECK(framing_refusal({}, {"identity", "chunked"}) ==
        "Transfer-Encoding given twice; send it once");
  CHECK(framing_refusal({"5"}, {"chunked"}) ==
        "both Content-Length and Transfer-Encoding: the body's end is given two ways; send one");
}
