#include <set>

#include "flightrec/config/schema.h"

namespace flightrec::config {
namespace {

// Markdown table cells: a '|' would end the cell, even inside backticks.
std::string table_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string code_cell(const std::string& value) {
  return table_cell(value.empty() ? "`\"\"`" : "`" + value + "`");
}

std::string key_row(const KeySpec& key, std::string_view path, const std::string& shown_default) {
  return "| `" + std::string(path) + "` | " + std::string(type_name(key)) + " | " + shown_default +
         " | " + table_cell(allowed_values(key)) + " | " + table_cell(key.help) + " |\n";
}

// One row per source with the default of each of its generated keys ("" where it has none).
std::string source_defaults_table() {
  const std::vector<std::string_view> fields{"enabled", "rate", "include", "exclude", "max_keys"};
  std::string out = "| Source |";
  for (std::string_view field : fields) out += " `" + std::string(field) + "` |";
  out += "\n|--------|";
  for (size_t i = 0; i < fields.size(); ++i) out += "----|";
  out += "\n";
  const Config defaults;
  for (const auto& [name, settings] : defaults.sources) {
    out += "| `" + name + "` |";
    for (std::string_view field : fields) {
      const KeySpec* key = find_key("sources." + name + "." + std::string(field));
      out += " " + (key ? code_cell(value_text(*key, defaults)) : std::string("-")) + " |";
    }
    out += "\n";
  }
  return out;
}

}  // namespace

std::string render_key_table_markdown() {
  std::string out =
      "| Key | Type | Default | Allowed | Description |\n"
      "|-----|------|---------|---------|-------------|\n";
  const Config defaults;
  std::set<std::string_view> families_shown;
  for (const KeySpec& key : schema()) {
    if (key.family.empty()) {
      out += key_row(key, key.path, code_cell(value_text(key, defaults)));
    } else if (families_shown.insert(key.family).second) {
      out += key_row(key, key.family, "per source, below");
    }
  }
  return out + "\nThe defaults of each source (`-`: the source has no such key):\n\n" +
         source_defaults_table();
}

}  // namespace flightrec::config
