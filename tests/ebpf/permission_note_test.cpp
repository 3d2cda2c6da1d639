// A BPF program refused for want of capabilities says which ones the process lacks.
#include <linux/capability.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <string>

#include "flightrec/common/capabilities.h"
#include "flightrec/ebpf/libbpf_errors.h"
#include "flightrec/process/task_iterator.h"
#include "without_capabilities.h"

using namespace flightrec;

TEST_CASE("a refusal names the capabilities missing, or says they are held", "[permission_note]") {
  CHECK(ebpf::permission_note(ENOENT, ebpf::kTracingCapabilities).empty());
  const std::string lacking = testing::in_child_without({CAP_BPF, CAP_PERFMON}, [] {
    return ebpf::permission_note(-EPERM, ebpf::kTracingCapabilities);
  });
  CHECK(lacking == ": missing CAP_BPF and CAP_PERFMON");
  if (!capabilities::holds(CAP_BPF) || !capabilities::holds(CAP_PERFMON)) return;
  CHECK_THAT(ebpf::permission_note(EACCES, ebpf::kTracingCapabilities),
             Catch::StartsWith(" although CAP_BPF and CAP_PERFMON are held ("));
  CHECK_THAT(ebpf::permission_note(EPERM, {CAP_SYS_ADMIN}),
             Catch::StartsWith(" although CAP_SYS_ADMIN is held ("));
}

TEST_CASE("loading a BPF program without CAP_BPF and CAP_PERFMON names them", "[permission_note]") {
  // CAP_SYS_ADMIN would stand in for both, so it goes too.
  const std::string error = testing::in_child_without({CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN}, [] {
    auto iterator = process::make_task_iterator();
    return iterator ? std::string("loaded") : iterator.error();
  });
  REQUIRE(error != "setup failed");
  if (error.find("Operation not permitted") == std::string::npos) {
    WARN("not run: the task iterator cannot load here for another reason: " << error);
    return;
  }
  CHECK_THAT(error, Catch::Contains("Operation not permitted: missing CAP_BPF and CAP_PERFMON"));
}
