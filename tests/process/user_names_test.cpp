#include "flightrec/process/user_names.h"

#include <catch2/catch.hpp>
#include <map>

using flightrec::process::lookup_user_name;
using flightrec::process::UserNames;

TEST_CASE("UserNames looks each uid up once", "[user_names]") {
  std::map<uint32_t, int> calls;
  UserNames names([&](uint32_t uid) -> std::optional<std::string> {
    ++calls[uid];
    return "user" + std::to_string(uid);
  });
  CHECK(names.name(1000) == "user1000");
  CHECK(names.name(1000) == "user1000");
  CHECK(names.name(7) == "user7");
  CHECK(calls[1000] == 1);
  CHECK(calls[7] == 1);
}

TEST_CASE("UserNames shows a uid without an entry as its number", "[user_names]") {
  UserNames names([](uint32_t) { return std::optional<std::string>(); });
  CHECK(names.name(4242) == "4242");
}

TEST_CASE("lookup_user_name finds root in the system's user database", "[user_names]") {
  CHECK(lookup_user_name(0) == "root");
  CHECK_FALSE(lookup_user_name(4'000'000'000U).has_value());
}
