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

}  // namespace

std::string render_key_table_markdown() {
  std::string out =
      "| Key | Type | Default | Allowed | Description |\n"
      "|-----|------|---------|---------|-------------|\n";
  const Config defaults;
  for (const KeySpec& key : schema()) {
    std::string value = value_text(key, defaults);
    std::string shown = value.empty() ? "`\"\"`" : "`" + value + "`";
    out += "| `" + std::string(key.path) + "` | " + std::string(type_name(key)) + " | " +
           table_cell(shown) + " | " + table_cell(allowed_values(key)) + " | " +
           table_cell(key.help) + " |\n";
  }
  return out;
}

}  // namespace flightrec::config
