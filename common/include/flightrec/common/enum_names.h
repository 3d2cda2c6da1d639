#pragma once
// An enum's names, written once: one constexpr table of {value, "name"} rows next to the enum,
// read in both directions by name_of and value_named, instead of a switch to print it and an if
// chain to parse it that can drift apart. A new value is one new row. A table whose rows carry
// more than a name (a title, a help text) keeps its own row type and loops the same way.
#include <cstddef>
#include <optional>
#include <string_view>

namespace flightrec {

template <typename Enum>
struct EnumName {
  Enum value;
  std::string_view name;
};

// The row's name for `value`; "" when the table has no row for it.
template <typename Enum, size_t N>
[[nodiscard]] constexpr std::string_view name_of(const EnumName<Enum> (&table)[N], Enum value) {
  for (const EnumName<Enum>& row : table) {
    if (row.value == value) return row.name;
  }
  return {};
}

// The value named `name` exactly; nullopt when no row has that name.
template <typename Enum, size_t N>
[[nodiscard]] constexpr std::optional<Enum> value_named(const EnumName<Enum> (&table)[N],
                                                        std::string_view name) {
  for (const EnumName<Enum>& row : table) {
    if (row.name == name) return row.value;
  }
  return std::nullopt;
}

// True when no two rows share a value or a name and no name is empty: what each table's
// static_assert checks, so a copied row that was not edited fails the build.
template <typename Enum, size_t N>
[[nodiscard]] constexpr bool names_are_distinct(const EnumName<Enum> (&table)[N]) {
  for (size_t i = 0; i < N; ++i) {
    if (table[i].name.empty()) return false;
    for (size_t j = i + 1; j < N; ++j) {
      if (table[i].value == table[j].value || table[i].name == table[j].name) return false;
    }
  }
  return true;
}

// For an enum numbered 0, 1, 2, ...: true when row i names value i. The table's size is then the
// enum's count, which arrays indexed by the enum take, and a loop over the rows visits every value.
template <typename Enum, size_t N>
[[nodiscard]] constexpr bool rows_follow_values(const EnumName<Enum> (&table)[N]) {
  for (size_t i = 0; i < N; ++i) {
    if (static_cast<size_t>(table[i].value) != i) return false;
  }
  return true;
}

}  // namespace flightrec
