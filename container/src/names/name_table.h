#pragma once
// One source's names, kept past the source's own memory: what its last complete read found is
// present; what was present and is no longer stays, marked gone, for the grace period.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/container/names/container_names.h"

namespace flightrec::container::names::detail {

// Keyed by container id, or by pod uid for the pods.
using Findings = std::map<std::string, ContainerNames, std::less<>>;

class NameTable {
 public:
  struct Row {
    ContainerNames names;
    std::optional<int64_t> gone_since_ns;  // when a read first missed it
  };

  // A complete read's findings at `now_ns`: they are the present rows, the rows they lack are
  // gone from now (or since they first went).
  void replace(Findings present, int64_t now_ns);

  // Forgets the rows gone `grace_ns` or longer before `now_ns`, and, beyond `max_gone` gone
  // rows, the ones that went first: a source whose containers churn cannot grow it unbounded.
  void expire(int64_t now_ns, int64_t grace_ns, size_t max_gone);

  [[nodiscard]] const Row* find(std::string_view key) const;
  [[nodiscard]] const std::map<std::string, Row, std::less<>>& rows() const { return rows_; }

 private:
  std::map<std::string, Row, std::less<>> rows_;
};

}  // namespace flightrec::container::names::detail
