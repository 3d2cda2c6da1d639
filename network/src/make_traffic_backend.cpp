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
  const auto taken = [&note](Result<std::unique_ptr<TrafficBackend>> made) {
    if (made) return *std::move(made);
    note = made.error();
    return std::unique_ptr<TrafficBackend>();
  };
  if (choice == "sock_diag") return taken(make_sock_diag_backend(root));
  auto ebpf = make_ebpf_backend(root.cgroupfs);
  if (ebpf || choice == "ebpf") return taken(std::move(ebpf));
  auto fallback = make_sock_diag_backend(root);
  note = "eBPF unavailable (" + ebpf.error() + ")" +
         (fallback ? "; using sock_diag, which counts TCP only"
                   : "; sock_diag unavailable too (" + fallback.error() + ")");
  return fallback ? *std::move(fallback) : nullptr;
}

}  // namespace flightrec::network
