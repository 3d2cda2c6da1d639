#include "flightrec/common/result.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>

namespace flightrec {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return Error{std::string("not a digit: ") + c};
  return c - '0';
}

Status check_positive(int value) {
  if (value <= 0) return Error{"not positive: " + std::to_string(value)};
  return {};
}

TEST_CASE("a Result holds the value or the error, never both", "[result]") {
  const auto good = parse_digit('7');
  REQUIRE(good.ok());
  REQUIRE(static_cast<bool>(good));
  CHECK(*good == 7);
  CHECK(good.value() == 7);

  const auto bad = parse_digit('x');
  REQUIRE_FALSE(bad.ok());
  REQUIRE_FALSE(static_cast<bool>(bad));
  CHECK(bad.error() == "not a digit: x");
}

TEST_CASE("a Result moves a value that cannot be copied out", "[result]") {
  Result<std::unique_ptr<int>> made = std::make_unique<int>(3);
  REQUIRE(made);
  const std::unique_ptr<int> taken = *std::move(made);
  REQUIRE(taken != nullptr);
  CHECK(*taken == 3);
}

TEST_CASE("a Status is success by default and carries the error otherwise", "[result]") {
  CHECK(check_positive(2).ok());
  const Status failed = check_positive(-1);
  REQUIRE_FALSE(failed);
  CHECK(failed.error() == "not positive: -1");
  CHECK(Status{}.error().empty());
}

TEST_CASE("a Result's members are reached through ->", "[result]") {
  const Result<std::string> text = std::string("abc");
  REQUIRE(text);
  CHECK(text->size() == 3);
}

}  // namespace
}  // namespace flightrec
