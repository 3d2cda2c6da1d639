#include "flightrec/common/enum_names.h"

#include <catch2/catch.hpp>

namespace flightrec {
namespace {

enum class Colour { red, green, blue };

constexpr EnumName<Colour> kColours[] = {
    {Colour::red, "red"}, {Colour::green, "green"}, {Colour::blue, "blue"}};

TEST_CASE("a names table is read both ways", "[enum_names]") {
  STATIC_REQUIRE(name_of(kColours, Colour::green) == "green");
  CHECK(value_named(kColours, "blue") == Colour::blue);
  CHECK_FALSE(value_named(kColours, "Blue").has_value());
  CHECK_FALSE(value_named(kColours, "").has_value());
}

TEST_CASE("a value without a row has no name", "[enum_names]") {
  constexpr EnumName<Colour> partial[] = {{Colour::red, "red"}};
  CHECK(name_of(partial, Colour::blue).empty());
}

TEST_CASE("a table with a repeated value or name, or an empty name, is not distinct",
          "[enum_names]") {
  STATIC_REQUIRE(names_are_distinct(kColours));
  constexpr EnumName<Colour> same_value[] = {{Colour::red, "red"}, {Colour::red, "green"}};
  constexpr EnumName<Colour> same_name[] = {{Colour::red, "red"}, {Colour::green, "red"}};
  constexpr EnumName<Colour> empty_name[] = {{Colour::red, ""}};
  STATIC_REQUIRE_FALSE(names_are_distinct(same_value));
  STATIC_REQUIRE_FALSE(names_are_distinct(same_name));
  STATIC_REQUIRE_FALSE(names_are_distinct(empty_name));
}

TEST_CASE("a table follows its enum's values when row i names value i", "[enum_names]") {
  STATIC_REQUIRE(rows_follow_values(kColours));
  constexpr EnumName<Colour> swapped[] = {{Colour::green, "green"}, {Colour::red, "red"}};
  constexpr EnumName<Colour> gap[] = {{Colour::red, "red"}, {Colour::blue, "blue"}};
  STATIC_REQUIRE_FALSE(rows_follow_values(swapped));
  STATIC_REQUIRE_FALSE(rows_follow_values(gap));
}

}  // namespace
}  // namespace flightrec
