#pragma once
// The Connections and Listening tables of the process tier: every TCP and UDP socket of this
// network namespace from sock_diag, each with the pid that holds it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "flightrec/network/sock_diag.h"
#include "flightrec/network/socket_owners.h"
#include "flightrec/sampler/proc_root.h"

namespace flightrec::network {

class SocketTable {
 public:
  // Throws std::system_error when the netlink socket cannot be opened.
  explicit SocketTable(sampler::ProcRoot root,
                       size_t max_sockets = SockDiagReader::kDefaultMaxSockets);

  // Replaces `out` with one row per socket: listening rows (TCP LISTEN, unconnected UDP) have
  // `listening` set and no remote, the rest are connections. The error says why the dump failed
  // (then `out` is empty).
  Status read(std::vector<SocketRow>& out);

  // The same read with the per-socket extras the traffic backend needs (cookie, packets).
  Status read(std::vector<DiagSocket>& out);

  [[nodiscard]] const SocketOwners& owners() const noexcept { return owners_; }
  [[nodiscard]] SocketOwners& owners() noexcept { return owners_; }

 private:
  SockDiagReader reader_;
  SocketOwners owners_;
  std::vector<DiagSocket> sockets_;
  std::vector<uint64_t> inodes_;
};

}  // namespace flightrec::network
