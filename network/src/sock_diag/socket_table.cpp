// A sock_diag dump with each socket's owner filled in from the cached inode map.
#include "flightrec/network/socket_table.h"

namespace flightrec::network {

SocketTable::SocketTable(sampler::ProcRoot root, size_t max_sockets)
    : reader_(max_sockets), owners_(std::move(root)) {}

Status SocketTable::read(std::vector<DiagSocket>& out) {
  if (Status read = reader_.read(out); !read) {
    out.clear();
    return read;
  }
  inodes_.clear();
  for (const DiagSocket& socket : out) inodes_.push_back(socket.row.inode);
  owners_.refresh(inodes_, SocketOwners::Clock::now());
  for (DiagSocket& socket : out) socket.row.pid = owners_.owner(socket.row.inode);
  return {};
}

Status SocketTable::read(std::vector<SocketRow>& out) {
  out.clear();
  if (Status read = this->read(sockets_); !read) return read;
  for (DiagSocket& socket : sockets_) out.push_back(std::move(socket.row));
  return {};
}

}  // namespace flightrec::network
