// Chooses the traffic backend network.backend asks for, falling back from eBPF to sock_diag.
#include "flightrec/network/ebpf_backend.h"
#include "flightrec/network/sock_diag_backend.h"
#include "flightrec/network/traffic_backend.h"

namespace flightrec::network {

std::unique_ptr<TrafficBackend> make_traffic_backend(std::string_view choice,
                                                     const sampler::ProcRoot& root,
                                                     std::string& note) {
  note.clear();
  if (choice == "off") return nullptr;
  if (choice == "sock_diag") return make_sock_diag_backend(root, note);
  std::string why_not_ebpf;
  auto ebpf = make_ebpf_backend(root.cgroupfs, why_not_ebpf);
  if (ebpf || choice == "ebpf") {
    note = why_not_ebpf;
    return ebpf;
  }
  std::string why_not_sock_diag;
  auto fallback = make_sock_diag_backend(root, why_not_sock_diag);
  note = "eBPF unavailable (" + why_not_ebpf + ")" +
         (fallback ? "; using sock_diag, which counts TCP only"
                   : "; sock_diag unavailable too (" + why_not_sock_diag + ")");
  return fallback;
}

}  // namespace flightrec::network
