#include "flightrec/common/capabilities.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <vector>

namespace flightrec::capabilities {
namespace {

std::string sentence_of(const std::vector<int>& numbers) {
  std::string text;
  for (size_t i = 0; i < numbers.size(); ++i) {
    if (i > 0) text += i + 1 == numbers.size() ? " and " : ", ";
    text += name_of(numbers[i]);
  }
  return text;
}

}  // namespace

bool holds(int number) noexcept {
  if (number < 0 || number >= 32 * _LINUX_CAPABILITY_U32S_3) return false;
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
  if (::syscall(SYS_capget, &header, data.data()) != 0) return false;
  const auto bit = static_cast<unsigned>(number) % 32;
  return (data[static_cast<size_t>(number) / 32].effective & (1U << bit)) != 0;
}

std::string name_of(int number) {
  switch (number) {
    case CAP_NET_ADMIN:
      return "CAP_NET_ADMIN";
    case CAP_SYS_ADMIN:
      return "CAP_SYS_ADMIN";
    case CAP_SYS_NICE:
      return "CAP_SYS_NICE";
    case CAP_SYSLOG:
      return "CAP_SYSLOG";
    case CAP_PERFMON:
      return "CAP_PERFMON";
    case CAP_BPF:
      return "CAP_BPF";
    default:
      return "capability " + std::to_string(number);
  }
}

std::string names_of(std::initializer_list<int> numbers) {
  return sentence_of(std::vector<int>(numbers));
}

std::string missing(std::initializer_list<int> needed) {
  std::vector<int> lacking;
  for (const int number : needed) {
    if (!holds(number)) lacking.push_back(number);
  }
  return sentence_of(lacking);
}

}  // namespace flightrec::capabilities
