// Loads network/bpf/traffic.bpf.c from the skeleton embedded at build time and attaches it.
#if FLIGHTREC_HAVE_EBPF
#include "traffic_program.h"

#include <bpf/libbpf.h>
#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "flightrec/ebpf/libbpf_errors.h"
#include "traffic.skel.h"

namespace flightrec::network::detail {
namespace {

bool is_cgroup_program(const bpf_program* program) {
  const bpf_prog_type type = bpf_program__type(program);
  return type == BPF_PROG_TYPE_CGROUP_SOCK || type == BPF_PROG_TYPE_CGROUP_SKB;
}

}  // namespace

std::string find_cgroup2_mount(const std::string& mountinfo) {
  std::istringstream lines(mountinfo);
  std::string line;
  while (std::getline(lines, line)) {
    // "<id> <parent> <major:minor> <root> <mount point> <options> [optional...] - <fstype> ..."
    std::istringstream fields(line);
    std::string field;
    std::string mount_point;
    for (int i = 0; i < 5 && fields >> field; ++i) mount_point = field;
    while (fields >> field && field != "-") {
    }
    if (fields >> field && field == "cgroup2") return mount_point;
  }
  return "";
}

Result<std::unique_ptr<TrafficProgram>> TrafficProgram::open(const std::string& cgroup_root) {
  ebpf::capture_libbpf_messages();
  std::unique_ptr<TrafficProgram> program(new TrafficProgram());
  program->skeleton_ = traffic_bpf::open();
  if (program->skeleton_ == nullptr) {
    return Error{ebpf::describe_libbpf_failure("opening the BPF object traffic.bpf.o", errno)};
  }
  if (const int code = traffic_bpf::load(program->skeleton_); code != 0) {
    return Error{ebpf::describe_libbpf_failure("loading the BPF programs of traffic.bpf.o", code,
                                               ebpf::kNetworkCapabilities)};
  }
  program->cgroup_ = Fd(::open(cgroup_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!program->cgroup_) {
    return Error{"opening the cgroup v2 root " + cgroup_root + ": " + std::strerror(errno)};
  }
  if (Status attached = program->attach(); !attached) return Error{std::move(attached).error()};
  return program;
}

Status TrafficProgram::attach() {
  bpf_program* program = nullptr;
  bpf_object__for_each_program(program, skeleton_->obj) {
    ebpf::capture_libbpf_messages();  // forget warnings of earlier programs
    bpf_link* link = is_cgroup_program(program) ? bpf_program__attach_cgroup(program, cgroup_.get())
                                                : bpf_program__attach(program);
    if (link == nullptr) {
      const int code = errno;
      return Error{ebpf::describe_libbpf_failure(
          std::string("attaching BPF program ") + bpf_program__name(program), code,
          ebpf::kNetworkCapabilities)};
    }
    links_.emplace_back(link);
  }
  return {};
}

TrafficProgram::~TrafficProgram() {
  links_.clear();  // detach before the programs and maps go
  if (skeleton_ != nullptr) traffic_bpf::destroy(skeleton_);
}

int TrafficProgram::processes_fd() const noexcept { return bpf_map__fd(skeleton_->maps.processes); }

int TrafficProgram::totals_fd() const noexcept { return bpf_map__fd(skeleton_->maps.totals); }

}  // namespace flightrec::network::detail
#endif
