#include "flightrec/process/cmdline.h"

#include <catch2/catch.hpp>

#include "temp_dir.h"

using flightrec::process::join_cmdline;
using flightrec::process::kMaxCmdlineBytes;
using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

TEST_CASE("join_cmdline joins arguments with spaces, keeping spaces inside them", "[cmdline]") {
  const auto cmdline = join_cmdline(read_file(fixture_path("procs-debian12/5198/cmdline")));
  CHECK(cmdline.text ==
        "/root/.pyenv/versions/3.11.7/bin/python3 -c import time; time.sleep(1003) --flag two "
        "words");
  CHECK_FALSE(cmdline.truncated);
}

TEST_CASE("join_cmdline gives an empty string for a kernel thread and a zombie", "[cmdline]") {
  CHECK(join_cmdline(read_file(fixture_path("procs-debian12/2/cmdline"))).text.empty());
  CHECK(join_cmdline(read_file(fixture_path("procs-debian12/5200/cmdline"))).text.empty());
}

TEST_CASE("join_cmdline drops trailing NUL padding but keeps empty arguments", "[cmdline]") {
  using namespace std::string_literals;
  CHECK(join_cmdline("a\0\0b\0\0\0\0"s).text == "a  b");
  CHECK(join_cmdline("title set by setproctitle"s).text == "title set by setproctitle");
}

TEST_CASE("join_cmdline bounds a huge command line and says it was cut", "[cmdline]") {
  const std::string huge(100000, 'x');
  const auto cut = join_cmdline(huge);
  CHECK(cut.text.size() == kMaxCmdlineBytes);
  CHECK(cut.truncated);

  const auto exact = join_cmdline(std::string(kMaxCmdlineBytes, 'y') + '\0');
  CHECK(exact.text.size() == kMaxCmdlineBytes);
  CHECK_FALSE(exact.truncated);

  CHECK(join_cmdline("abcdef", 3).text == "abc");
}
