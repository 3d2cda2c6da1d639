// The eBPF traffic backend: reads the maps network/bpf/traffic.bpf.c fills into TrafficReadings.
#include "flightrec/network/ebpf_backend.h"

#if FLIGHTREC_HAVE_EBPF
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/magic.h>
#include <linux/types.h>
#include <net/if.h>
#include <sys/vfs.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "flightrec/common/log.h"
#include "traffic_maps.h"
#include "traffic_program.h"
#endif

namespace flightrec::network {

#if FLIGHTREC_HAVE_EBPF
namespace {

std::string map_error(std::string_view step, std::string_view map) {
  return std::string(step) + " BPF map " + std::string(map) + ": " + std::strerror(errno);
}

uint64_t minus_or_zero(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

// Traffic the programs saw but could not tie to a process. Received packets are counted as they
// enter the stack and again when they reach an owned socket, so the difference is what reached
// no process (other protocols, no listener, sockets of unknown owners).
NetCounters unattributed_traffic(const flightrec_traffic_totals& sum) {
  NetCounters counters;
  counters.tx_packets = sum.unowned_tx_packets;
  counters.tx_bytes = sum.unowned_tx_bytes + sum.lost_tx_bytes;
  counters.rx_packets = minus_or_zero(sum.device_rx_packets, sum.owned_rx_packets);
  counters.rx_bytes = minus_or_zero(sum.device_rx_bytes, sum.owned_rx_bytes) + sum.lost_rx_bytes;
  return counters;
}

class EbpfBackend final : public TrafficBackend {
 public:
  explicit EbpfBackend(std::unique_ptr<detail::TrafficProgram> program)
      : program_(std::move(program)) {}

  [[nodiscard]] std::string_view name() const noexcept override { return "ebpf"; }

  Status read(TrafficReading& out) override {
    TrafficReading reading;
    std::vector<uint32_t> exited;
    if (Status read = read_processes(reading.processes, exited); !read) return read;
    const auto sum = read_totals();
    if (!sum) return Error{sum.error()};
    reading.unattributed = never_less_than_before(unattributed_traffic(*sum));
    // Warned at the first miss and then each time the misses double, not at every read.
    if (sum->process_map_full >= next_map_full_warning_) {
      next_map_full_warning_ = sum->process_map_full * 2;
      log::warn("BPF map processes is full: traffic of new processes counts as unattributed",
                {{"capacity", std::to_string(FLIGHTREC_MAX_PROCESSES)},
                 {"misses", std::to_string(sum->process_map_full)}});
    }
    // Reported once with their totals: now their entries can go, keeping the map bounded. One
    // that cannot go is reported again next time, which is harmless.
    for (uint32_t tgid : exited) {
      if (bpf_map_delete_elem(program_->processes_fd(), &tgid) != 0 && errno != ENOENT) {
        log::warn("cannot delete an exited process from BPF map processes",
                  {{"pid", std::to_string(tgid)}, {"error", std::strerror(errno)}});
      }
    }
    out = std::move(reading);
    return {};
  }

 private:
  Status read_processes(std::vector<ProcessTraffic>& processes, std::vector<uint32_t>& exited) {
    const int fd = program_->processes_fd();
    std::unordered_map<uint32_t, std::string> device_names;  // one read: interfaces come and go
    uint32_t key = 0;
    uint32_t next = 0;
    const uint32_t* previous = nullptr;  // null asks for the first key
    while (bpf_map_get_next_key(fd, previous, &next) == 0) {
      key = next;
      previous = &key;
      flightrec_process_traffic value{};
      if (bpf_map_lookup_elem(fd, &key, &value) != 0) {
        if (errno == ENOENT) continue;  // removed since get_next_key
        return Error{map_error("reading", "processes")};
      }
      processes.push_back(to_process_traffic(key, value, device_names));
      if (value.exited != 0) exited.push_back(key);
    }
    if (errno != ENOENT) return Error{map_error("iterating", "processes")};
    return {};
  }

  // The totals of every CPU summed.
  Result<flightrec_traffic_totals> read_totals() {
    const int cpus = libbpf_num_possible_cpus();
    if (cpus <= 0) {
      return Error{"counting possible CPUs for BPF map totals: " +
                   std::string(std::strerror(-cpus))};
    }
    std::vector<flightrec_traffic_totals> per_cpu(static_cast<size_t>(cpus));
    const uint32_t zero = 0;
    if (bpf_map_lookup_elem(program_->totals_fd(), &zero, per_cpu.data()) != 0) {
      return Error{map_error("reading", "totals")};
    }
    flightrec_traffic_totals sum{};
    for (const flightrec_traffic_totals& cpu : per_cpu) {
      sum.unowned_tx_packets += cpu.unowned_tx_packets;
      sum.unowned_tx_bytes += cpu.unowned_tx_bytes;
      sum.device_rx_packets += cpu.device_rx_packets;
      sum.device_rx_bytes += cpu.device_rx_bytes;
      sum.owned_rx_packets += cpu.owned_rx_packets;
      sum.owned_rx_bytes += cpu.owned_rx_bytes;
      sum.lost_tx_bytes += cpu.lost_tx_bytes;
      sum.lost_rx_bytes += cpu.lost_rx_bytes;
      sum.process_map_full += cpu.process_map_full;
    }
    return sum;
  }

  static ProcessTraffic to_process_traffic(
      uint32_t tgid, const flightrec_process_traffic& value,
      std::unordered_map<uint32_t, std::string>& device_names) {
    ProcessTraffic traffic;
    traffic.pid = static_cast<int32_t>(tgid);
    traffic.comm.assign(value.comm, strnlen(value.comm, sizeof(value.comm)));
    traffic.counters.tx_bytes = value.tx_bytes;
    traffic.counters.rx_bytes = value.rx_bytes;
    traffic.counters.tx_packets = value.tx_packets;
    traffic.counters.rx_packets = value.rx_packets;
    traffic.exited = value.exited != 0;
    const auto busiest =
        std::max_element(std::begin(value.devices), std::end(value.devices),
                         [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    if (busiest->ifindex != 0) traffic.device = device_name(busiest->ifindex, device_names);
    return traffic;
  }

  // Interface names are those of flightrec's network namespace: a process in another namespace
  // may name an index that is absent here (then "") or that is another interface here.
  static const std::string& device_name(uint32_t ifindex,
                                        std::unordered_map<uint32_t, std::string>& names) {
    auto [entry, inserted] = names.try_emplace(ifindex);
    if (inserted) {
      char name[IF_NAMESIZE] = {};
      if (if_indextoname(ifindex, name) != nullptr) entry->second = name;
    }
    return entry->second;
  }

  // The received-but-unowned count is a difference of two counters the programs bump at
  // different moments, so it can dip by the packets in flight; a counter must not go back.
  NetCounters never_less_than_before(const NetCounters& now) {
    floor_.tx_bytes = std::max(floor_.tx_bytes, now.tx_bytes);
    floor_.rx_bytes = std::max(floor_.rx_bytes, now.rx_bytes);
    floor_.tx_packets = std::max(floor_.tx_packets, now.tx_packets);
    floor_.rx_packets = std::max(floor_.rx_packets, now.rx_packets);
    return floor_;
  }

  std::unique_ptr<detail::TrafficProgram> program_;
  NetCounters floor_;
  uint64_t next_map_full_warning_ = 1;
};

std::string read_mountinfo() {
  // rdbuf into a stringstream, not istreambuf_iterator: g++ 12 at -O3 warns (null-dereference)
  // inside libstdc++'s iterator, and warnings are errors.
  std::ifstream file("/proc/self/mountinfo");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The cgroup v2 root the socket programs attach to: --path.cgroupfs itself or its `unified`
// directory when that is a cgroup2 mount (in a container with a private cgroup namespace, the
// host's hierarchy mounted there is the one that sees every socket), else the first cgroup2 mount
// this process sees.
std::string cgroup2_root(const std::filesystem::path& cgroupfs) {
  for (const auto& candidate : {cgroupfs, cgroupfs / "unified"}) {
    struct statfs fs {};
    if (::statfs(candidate.c_str(), &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC) {
      return candidate.string();
    }
  }
  return detail::find_cgroup2_mount(read_mountinfo());
}

}  // namespace

Result<std::unique_ptr<TrafficBackend>> make_ebpf_backend(const std::filesystem::path& cgroupfs) {
  const std::string cgroup_root = cgroup2_root(cgroupfs);
  if (cgroup_root.empty()) {
    return Error{"no cgroup v2 mount at " + cgroupfs.string() +
                 " or in /proc/self/mountinfo (the socket programs attach to it)"};
  }
  auto program = detail::TrafficProgram::open(cgroup_root);
  if (!program) return Error{std::move(program).error()};
  return std::unique_ptr<TrafficBackend>(std::make_unique<EbpfBackend>(*std::move(program)));
}

#else

Result<std::unique_ptr<TrafficBackend>> make_ebpf_backend(const std::filesystem::path&) {
  return Error{FLIGHTREC_EBPF_UNAVAILABLE};
}

#endif

}  // namespace flightrec::network
