#include "without_capabilities.h"

#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <catch2/catch.hpp>

namespace flightrec::testing {
namespace {

bool drop_effective(std::initializer_list<int> dropped) {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  std::array<__user_cap_data_struct, _LINUX_CAPABILITY_U32S_3> data{};
  if (::syscall(SYS_capget, &header, data.data()) != 0) return false;
  for (const int number : dropped) {
    data[static_cast<size_t>(number) / 32].effective &=
        ~(1U << (static_cast<unsigned>(number) % 32));
  }
  return ::syscall(SYS_capset, &header, data.data()) == 0;
}

}  // namespace

std::string in_child_without(std::initializer_list<int> dropped,
                             const std::function<std::string()>& run) {
  std::array<int, 2> fds{};
  REQUIRE(::pipe(fds.data()) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    const std::string answer = drop_effective(dropped) ? run() : "setup failed";
    static_cast<void>(::write(fds[1], answer.data(), answer.size()));
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string answer;
  std::array<char, 512> buffer{};
  ssize_t n = 0;
  while ((n = ::read(fds[0], buffer.data(), buffer.size())) > 0) {
    answer.append(buffer.data(), static_cast<size_t>(n));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return answer;
}

}  // namespace flightrec::testing
