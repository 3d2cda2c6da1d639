#include "flightrec/process/cmdline_redactor.h"

#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "flightrec/config/config.h"

using flightrec::process::CmdlineRedactor;

namespace {
CmdlineRedactor default_redactor() {
  return CmdlineRedactor(flightrec::config::Config{}.processes.redact_cmdline);
}
}  // namespace

TEST_CASE("The default redaction hides password and token arguments", "[redactor]") {
  const CmdlineRedactor redactor = default_redactor();
  CHECK(redactor.redact("mysql --password=hunter2 -u root") == "mysql <redacted> -u root");
  CHECK(redactor.redact("curl -H token:abc https://example.com") ==
        "curl -H <redacted> https://example.com");
  CHECK(redactor.redact("app --api-key sk_live_1 --secret=s2 run") ==
        "app <redacted> <redacted> run");
  CHECK(redactor.redact("psql postgres://u@h/db password=pw1") ==
        "psql postgres://u@h/db <redacted>");
}

TEST_CASE("The default redaction leaves ordinary command lines alone", "[redactor]") {
  const CmdlineRedactor redactor = default_redactor();
  for (const std::string cmdline :
       {"/usr/sbin/sshd -D", "sleep 1000", "python3 -c import time; time.sleep(1003)",
        "passwd alice", ""}) {
    CHECK(redactor.redact(cmdline) == cmdline);
  }
}

TEST_CASE("CmdlineRedactor replaces every match of a configured regex", "[redactor]") {
  const CmdlineRedactor redactor("[0-9]+");
  CHECK(redactor.redact("a1 b22 c") == "a<redacted> b<redacted> c");
}

TEST_CASE("CmdlineRedactor with an empty regex redacts nothing", "[redactor]") {
  CHECK(CmdlineRedactor("").redact("mysql --password=hunter2") == "mysql --password=hunter2");
}

TEST_CASE("CmdlineRedactor ignores empty matches", "[redactor]") {
  CHECK(CmdlineRedactor("x*").redact("abxxc") == "ab<redacted>c");
}

TEST_CASE("CmdlineRedactor copes with a command line at the length limit", "[redactor]") {
  const std::string secret(4000, 's');
  CHECK(default_redactor().redact("x --token=" + secret + " y") == "x <redacted> y");
}

TEST_CASE("CmdlineRedactor names the config key of a regex that does not compile", "[redactor]") {
  try {
    CmdlineRedactor redactor("(unclosed");
    FAIL("expected an exception");
  } catch (const std::invalid_argument& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("processes.redact_cmdline"));
    CHECK_THAT(e.what(), Catch::Matchers::Contains("(unclosed"));
  }
}

TEST_CASE("CmdlineRedactor finishes on patterns a backtracking engine never would", "[redactor]") {
  // (a+)+b against 4,000 a's takes a backtracking engine 2^4000 steps; any local user can start a
  // process with such a command line, and the redactor runs on the process tier's thread.
  const std::string cmdline = "prog " + std::string(4000, 'a');
  CHECK(CmdlineRedactor("(a+)+b").redact(cmdline) == cmdline);
  CHECK(CmdlineRedactor("(a|aa)+$").redact(cmdline) == "prog <redacted>");
}

TEST_CASE("CmdlineRedactor hides a secret holding bytes that are not UTF-8", "[redactor]") {
  CHECK(default_redactor().redact("app --token=ab\xff\xfe"
                                  "cd next") == "app <redacted> next");
}

TEST_CASE("CmdlineRedactor keeps ^ at the start of the command line for later matches",
          "[redactor]") {
  CHECK(CmdlineRedactor("^a").redact("aaa") == "<redacted>aa");
}

TEST_CASE("CmdlineRedactor refuses back-references, which RE2 does not run", "[redactor]") {
  CHECK_THROWS_WITH(CmdlineRedactor("(x)\\1"),
                    Catch::Matchers::Contains("processes.redact_cmdline") &&
                        Catch::Matchers::Contains("invalid escape"));
}
