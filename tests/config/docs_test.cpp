// docs/CONFIG.md cannot drift from the key table: every key is there, and the table is current.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "flightrec/config/schema.h"

using namespace flightrec::config;

namespace {

std::string read_docs() {
  std::ifstream in(FLIGHTREC_DOCS "/CONFIG.md");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("docs/CONFIG.md mentions every key of the key table", "[docs]") {
  std::string docs = read_docs();
  for (const KeySpec& key : schema()) {
    // A generated key is documented by its family's row and its source's row of defaults.
    std::string_view shown = key.family.empty() ? key.path : key.family;
    INFO("key missing from docs/CONFIG.md: " << shown);
    CHECK(docs.find("`" + std::string(shown) + "`") != std::string::npos);
  }
}

TEST_CASE("docs/CONFIG.md contains the key table rendered from the schema", "[docs]") {
  std::string table = render_key_table_markdown();
  bool current = read_docs().find(table) != std::string::npos;
  if (!current) {
    // Catch wraps long messages, so the table to paste goes to a file instead.
    std::ofstream(FLIGHTREC_TEST_OUTPUT "/CONFIG.keys.md") << table;
  }
  INFO("the key table in docs/CONFIG.md is out of date; replace it with the contents of "
       << FLIGHTREC_TEST_OUTPUT "/CONFIG.keys.md");
  CHECK(current);
}
