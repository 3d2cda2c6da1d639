#include "flightrec/common/flags.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using flightrec::flags::Flag;
using flightrec::flags::parse;

namespace {

struct Options {
  std::string format;
  bool batch = false;
  std::vector<std::string> files;
};

std::vector<Flag> table(Options& o) {
  return {{"--format", "-f", "FORMAT", "json or csv.",
           [&o](std::string_view value) -> flightrec::Status {
             if (value != "json" && value != "csv") {
               return flightrec::Error{"\"" + std::string(value) + "\" is bad"};
             }
             o.format = std::string(value);
             return {};
           }},
          {"--batch", "-b", "", "Plain output.", [&o](std::string_view) {
             o.batch = true;
             return flightrec::Status{};
           }}};
}

flightrec::Result<flightrec::flags::Parsed> run(Options& o, std::vector<std::string_view> args) {
  const auto flags = table(o);
  return parse(args, flags, [&o](std::string_view file) {
    o.files.emplace_back(file);
    return flightrec::Status{};
  });
}

}  // namespace

TEST_CASE("flagsTakeValuesAttachedOrAsTheNextArgumentAndShortAliases", "[flags]") {
  Options o;
  REQUIRE(run(o, {"a", "--format=csv", "-b", "b"}).ok());
  CHECK(o.format == "csv");
  CHECK(o.batch);
  CHECK(o.files == std::vector<std::string>{"a", "b"});
  Options p;
  REQUIRE(run(p, {"-f", "json", "--batch"}).ok());
  CHECK(p.format == "json");
}

TEST_CASE("flagErrorsNameTheFlagTheSameWayForEveryCommand", "[flags]") {
  Options o;
  const auto unknown = run(o, {"--bogus=1"});
  CHECK(unknown.error() == "unknown flag --bogus");
  // A likely typo names the flag meant, as config keys do; the value does not count.
  CHECK(run(o, {"--fromat=csv"}).error() == "unknown flag --fromat; did you mean --format?");
  CHECK(run(o, {"--bach"}).error() == "unknown flag --bach; did you mean --batch?");
  CHECK(run(o, {"--format"}).error() == "flag --format needs a value");
  CHECK(run(o, {"--format="}).error() == "flag --format needs a non-empty value");
  CHECK(run(o, {"--batch=yes"}).error() == "--batch takes no value");
  CHECK(run(o, {"-f", "xml"}).error() == "-f: \"xml\" is bad");
  const auto flags = table(o);
  const std::vector<std::string_view> stray{"stray"};
  CHECK(parse(stray, flags).error() == "unexpected argument \"stray\"");
}

TEST_CASE("aCommandSaysItsOwnWordsAboutAFlagItLacks", "[flags]") {
  Options o;
  const auto flags = table(o);
  const std::vector<std::string_view> args{"--bogus=1"};
  std::string seen;
  const auto parsed = parse(args, flags, {}, [&seen](std::string_view flag) {
    seen = std::string(flag);
    return "no " + seen + " here";
  });
  CHECK(seen == "--bogus");
  CHECK(parsed.error() == "no --bogus here");
}

TEST_CASE("helpWinsWhereverItStands", "[flags]") {
  Options o;
  CHECK(run(o, {"--format=csv", "--help"})->help);
  CHECK(run(o, {"-h"})->help);
}

TEST_CASE("helpLinesAlignEveryFlagsText", "[flags]") {
  Options o;
  const std::string help = flightrec::flags::help_lines(table(o));
  CHECK(help ==
        "  -f, --format=FORMAT        json or csv.\n"
        "  -b, --batch                Plain output.\n");
}
