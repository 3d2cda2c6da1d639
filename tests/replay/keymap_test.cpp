#include "flightrec/replay/keymap.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "flightrec/replay/session.h"
#include "flightrec/replay/table.h"

using namespace flightrec::replay;

TEST_CASE("Every key of the keymap is on the help screen, on the line of its entry", "[keymap]") {
  const auto lines = help_lines();
  const auto& entries = keymap();
  REQUIRE(lines.size() == entries.size() + 4);  // title, blank, one line per entry, blank, legend
  for (size_t i = 0; i < entries.size(); ++i) {
    const std::string& line = lines[i + 2];
    CHECK_THAT(line, Catch::Matchers::EndsWith(std::string(entries[i].what)));
    for (const KeyBinding& binding : entries[i].bindings) {
      CHECK_THAT(line, Catch::Matchers::Contains(std::string(binding.label)));
      CHECK(action_of(binding.key) == binding.action);
    }
  }
}

TEST_CASE("No key is bound twice", "[keymap]") {
  std::set<int> seen;
  for (const KeyHelp& entry : keymap()) {
    for (const KeyBinding& binding : entry.bindings) CHECK(seen.insert(binding.key).second);
  }
}

TEST_CASE("The help screen lines up its key column as before", "[keymap]") {
  const auto lines = help_lines();
  CHECK(lines[0] == "flightrec replay - keys");
  CHECK(lines[2] == "  F1 h ?      this help (any key returns)");
  CHECK(lines[3] == "  q F10       quit");
  CHECK(std::find(lines.begin(), lines.end(),
                  "  Up Down PgUp PgDn  move the selection (it follows its process in time)") !=
        lines.end());
}

TEST_CASE("Keys without a use do nothing", "[keymap]") {
  CHECK_FALSE(action_of('z').has_value());
  CHECK_FALSE(action_of(keys::kEscape).has_value());
}

TEST_CASE("Tab names and titles come from one table", "[keymap][tabs]") {
  REQUIRE(std::size(kTabs) == std::size(kTabNames));
  for (size_t i = 0; i < std::size(kTabNames); ++i) {
    CHECK(kTabs[i] == kTabNames[i].tab);
    CHECK(tab_index(kTabNames[i].tab) == i);
    CHECK(tab_named(kTabNames[i].name) == kTabNames[i].tab);
    CHECK(tab_title(kTabNames[i].tab) == kTabNames[i].title);
  }
  CHECK(tab_named("Network") == Tab::network);
  CHECK_FALSE(tab_named("nope").has_value());
}

TEST_CASE("The help screen and its key bar fit a 24-line terminal", "[keymap]") {
  CHECK(help_lines().size() + 1 <= 24);
}

TEST_CASE("docs/REPLAY.md names every key of the keymap", "[keymap][docs]") {
  std::ifstream in(std::filesystem::path(FLIGHTREC_REPLAY_TEST_DIR) / ".." / ".." / "docs" /
                   "REPLAY.md");
  REQUIRE(in);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  const std::string text = bytes.str();
  const size_t begin = text.find("## Keys");
  REQUIRE(begin != std::string::npos);
  // The first column of the section's table: "| F1, h, ? | help ... |" gives " F1, h, ? ".
  std::string key_column;
  std::istringstream section(text.substr(begin, text.find("\n## ", begin + 1) - begin));
  for (std::string line; std::getline(section, line);) {
    if (line.starts_with("| ")) key_column += line.substr(1, line.find('|', 1) - 1) + "\n";
  }
  for (const KeyHelp& entry : keymap()) {
    for (const KeyBinding& binding : entry.bindings) {
      INFO("key missing from the Keys table of docs/REPLAY.md: " << binding.label);
      CHECK(key_column.find(binding.label) != std::string::npos);
    }
  }
}

TEST_CASE("The key bar is the keymap's short forms, in keymap order", "[keymap]") {
  CHECK(key_bar_text() ==
        "h:Help q:Quit []:Step {}:1s Spc:Play g:Goto i:Trig Tab /:Search \\:Filter t:Tree <>:Sort");
}
