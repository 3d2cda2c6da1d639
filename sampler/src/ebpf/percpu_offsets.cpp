#if FLIGHTREC_HAVE_EBPF
#include "percpu_offsets.h"

#include <bpf/btf.h>

#include <array>
#include <cerrno>
#include <memory>
#include <string_view>
#include <utility>

#include "flightrec/ebpf/libbpf_errors.h"

namespace flightrec::sampler::detail {
namespace {

// The DATASEC pahole writes for the kernel's per-CPU variables.
constexpr const char* kPerCpuSection = ".data..percpu";

struct BtfFree {
  void operator()(btf* vmlinux) const noexcept { btf__free(vmlinux); }
};

}  // namespace

Result<PerCpuOffsets> find_percpu_offsets() {
  const std::unique_ptr<btf, BtfFree> vmlinux(btf__load_vmlinux_btf());
  if (vmlinux == nullptr) {
    return Error{ebpf::describe_libbpf_failure("loading the kernel's BTF", errno)};
  }
  const int section = btf__find_by_name_kind(vmlinux.get(), kPerCpuSection, BTF_KIND_DATASEC);
  if (section < 0) {
    return Error{std::string("the kernel's BTF has no per-CPU section ") + kPerCpuSection};
  }
  PerCpuOffsets out;
  const std::array<std::pair<std::string_view, uint64_t*>, 3> wanted{{
      {"runqueues", &out.runqueues},
      {"kernel_cpustat", &out.kernel_cpustat},
      {"tick_cpu_sched", &out.tick_cpu_sched},
  }};
  std::array<bool, wanted.size()> found{};
  const btf_type* type = btf__type_by_id(vmlinux.get(), static_cast<__u32>(section));
  const btf_var_secinfo* variables = btf_var_secinfos(type);
  for (__u16 i = 0; i < btf_vlen(type); ++i) {
    const btf_type* variable = btf__type_by_id(vmlinux.get(), variables[i].type);
    const std::string_view name = btf__name_by_offset(vmlinux.get(), variable->name_off);
    for (size_t w = 0; w < wanted.size(); ++w) {
      if (name != wanted[w].first) continue;
      *wanted[w].second = variables[i].offset;
      found[w] = true;
    }
  }
  for (size_t w = 0; w < wanted.size(); ++w) {
    if (found[w]) continue;
    return Error{"the kernel's BTF does not list " + std::string(wanted[w].first) + " in " +
                 kPerCpuSection};
  }
  return out;
}

}  // namespace flightrec::sampler::detail
#endif
