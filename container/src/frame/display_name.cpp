#include "flightrec/container/frame/display_name.h"

#include <algorithm>
#include <cctype>

namespace flightrec::container {
namespace {

bool is_hex_id(const std::string& id) {
  return id.size() == 64 &&
         std::all_of(id.begin(), id.end(), [](char c) { return std::isxdigit(c) != 0; });
}

}  // namespace

std::string display_name(const ContainerRow& row) {
  if (!row.pod.empty()) {
    std::string name = row.pod_namespace + "/" + row.pod;
    if (!row.container.empty()) name += "/" + row.container;
    return name;
  }
  if (!row.name.empty()) return row.name;
  return is_hex_id(row.id) ? row.id.substr(0, 12) : row.id;
}

}  // namespace flightrec::container
