#include "flightrec/common/open_file_limit.h"

#include <sys/resource.h>

#include <catch2/catch.hpp>

namespace {

// The test's own limit, put back whatever happens.
struct SavedLimit {
  rlimit saved{};
  SavedLimit() { REQUIRE(::getrlimit(RLIMIT_NOFILE, &saved) == 0); }
  ~SavedLimit() { ::setrlimit(RLIMIT_NOFILE, &saved); }
};

}  // namespace

TEST_CASE("shouldRaiseTheSoftOpenFileLimitToTheHardOne", "[common][open_file_limit]") {
  const SavedLimit saved;
  if (saved.saved.rlim_max == RLIM_INFINITY || saved.saved.rlim_max <= 64) {
    WARN("skipped: the hard limit is infinite or too low to lower the soft one below it");
    return;
  }
  rlimit lowered = saved.saved;
  lowered.rlim_cur = 64;
  REQUIRE(::setrlimit(RLIMIT_NOFILE, &lowered) == 0);
  CHECK(flightrec::raise_open_file_limit() == saved.saved.rlim_max);
  rlimit now{};
  REQUIRE(::getrlimit(RLIMIT_NOFILE, &now) == 0);
  CHECK(now.rlim_cur == saved.saved.rlim_max);
}
