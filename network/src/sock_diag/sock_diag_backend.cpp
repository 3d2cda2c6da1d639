// Turns per-socket tcp_info counters into per-process cumulative counters. Each socket (keyed by
// its cookie) remembers how much of its counters has been charged, so a total only ever grows by
// what a socket moved since the last read, and a closed socket's bytes stay where they were
// charged.
#include "flightrec/network/sock_diag_backend.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace flightrec::network {
namespace {

// The part of `seen` not yet in `charged`, field by field; counters of one socket never go back,
// but a value that did would add nothing rather than wrap.
NetCounters uncharged(const NetCounters& seen, const NetCounters& charged) {
  const auto gap = [](uint64_t now, uint64_t before) { return now > before ? now - before : 0; };
  return {gap(seen.tx_bytes, charged.tx_bytes), gap(seen.rx_bytes, charged.rx_bytes),
          gap(seen.tx_packets, charged.tx_packets), gap(seen.rx_packets, charged.rx_packets)};
}

void add(NetCounters& total, const NetCounters& delta) {
  total.tx_bytes += delta.tx_bytes;
  total.rx_bytes += delta.rx_bytes;
  total.tx_packets += delta.tx_packets;
  total.rx_packets += delta.rx_packets;
}

std::string read_comm(const sampler::ProcRoot& root, int32_t pid) {
  std::ifstream file(root.proc(std::to_string(pid)) / "comm");
  std::string comm;
  std::getline(file, comm);
  return comm;
}

}  // namespace

SockDiagBackend::SockDiagBackend(sampler::ProcRoot root, size_t max_sockets)
    : root_(root), table_(std::move(root), max_sockets) {}

Status SockDiagBackend::read(TrafficReading& out) {
  if (Status read = table_.read(dump_); !read) return read;
  ++reads_;
  for (const DiagSocket& socket : dump_) track(socket);
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (it->second.last_read == reads_) {
      ++it;
      continue;
    }
    charge(it->second, true);  // closed since the last read: its last counters are all we get
    it = tracked_.erase(it);
  }
  report(out);
  return {};
}

void SockDiagBackend::track(const DiagSocket& socket) {
  const SocketRow& row = socket.row;
  if (row.protocol != SocketProtocol::tcp || row.listening || !row.tx_bytes) return;
  const NetCounters now{*row.tx_bytes, row.rx_bytes.value_or(0), socket.tx_packets.value_or(0),
                        socket.rx_packets.value_or(0)};
  const auto [entry, inserted] = tracked_.try_emplace(socket.cookie);
  TrackedSocket& tracked = entry->second;
  // A socket already open at the first read counts only what it moves from then on.
  if (inserted && reads_ == 1) tracked.charged = now;
  // Owners stick: a socket its process closed reports inode 0 while it finishes (FIN_WAIT).
  if (row.pid != 0) tracked.pid = row.pid;
  if (row.inode != 0) tracked.inode = row.inode;
  tracked.seen = now;
  tracked.last_read = reads_;
  charge(tracked, false);
  // Only a socket a process still holds (it has an inode) says that process is alive.
  if (row.pid != 0) processes_[row.pid].last_socket_read = reads_;
}

void SockDiagBackend::charge(TrackedSocket& socket, bool final_read) {
  NetCounters* total = nullptr;
  if (socket.pid != 0) {
    auto [entry, inserted] = processes_.try_emplace(socket.pid);
    if (inserted) entry->second.comm = read_comm(root_, socket.pid);
    total = &entry->second.counters;
  } else if (final_read || socket.inode == 0 || table_.owners().settled(socket.inode)) {
    total = &unattributed_;
  } else {
    return;  // the owner cache has not looked for this inode yet: hold its bytes until it has
  }
  add(*total, uncharged(socket.seen, socket.charged));
  socket.charged = socket.seen;
}

void SockDiagBackend::report(TrafficReading& out) {
  out.processes.clear();
  for (auto it = processes_.begin(); it != processes_.end();) {
    const auto& [pid, totals] = *it;
    bool gone = false;
    if (totals.last_socket_read != reads_) {
      std::error_code ignored;
      gone = !std::filesystem::exists(root_.proc(std::to_string(pid)), ignored);
    }
    out.processes.push_back({pid, totals.comm, totals.counters, "", gone});
    if (!gone) {
      ++it;
      continue;
    }
    // Its closed sockets may linger (FIN_WAIT) after it is forgotten: what they still move is
    // no longer anyone's, unless a process it forked still holds them, which the next owner scan
    // finds.
    for (auto& [cookie, socket] : tracked_) {
      if (socket.pid == pid) socket.pid = 0;
    }
    table_.owners().forget(pid);
    it = processes_.erase(it);
  }
  out.unattributed = unattributed_;
}

void SockDiagBackend::sockets(std::vector<SocketRow>& out) const {
  out.clear();
  for (const DiagSocket& socket : dump_) out.push_back(socket.row);
}

Result<std::unique_ptr<TrafficBackend>> make_sock_diag_backend(const sampler::ProcRoot& root) {
  try {
    return std::unique_ptr<TrafficBackend>(std::make_unique<SockDiagBackend>(root));
  } catch (const std::system_error& e) {
    return Error{std::string("sock_diag unavailable: ") + e.what()};
  }
}

}  // namespace flightrec::network
