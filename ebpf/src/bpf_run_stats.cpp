// The run statistics of this process's BPF programs through libbpf's object info query.
#include "flightrec/ebpf/bpf_run_stats.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <system_error>

#if FLIGHTREC_HAVE_EBPF
#include <bpf/bpf.h>
#include <linux/bpf.h>
#include <linux/capability.h>

#include "flightrec/ebpf/libbpf_errors.h"
#endif

namespace flightrec::ebpf {

namespace {

constexpr std::string_view kProgramLink = "anon_inode:bpf-prog";

bool parse_fd(const std::string& name, int& fd) {
  const char* end = name.data() + name.size();
  auto [ptr, ec] = std::from_chars(name.data(), end, fd);
  return ec == std::errc() && ptr == end;
}

}  // namespace

OwnBpfPrograms::OwnBpfPrograms(const std::filesystem::path& fd_dir, BpfProgramReader reader)
    : reader_(std::move(reader)) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(fd_dir, ec)) {
    int fd = -1;
    if (!parse_fd(entry.path().filename().string(), fd)) continue;
    std::error_code link_ec;
    if (std::filesystem::read_symlink(entry.path(), link_ec).string() != kProgramLink) continue;
    const auto program = reader_(fd);
    // A program held through two fds (the skeleton's and a link's) is one program.
    if (program && std::none_of(held_.begin(), held_.end(),
                                [&](const Held& h) { return h.id == program->id; })) {
      held_.push_back({.fd = fd, .id = program->id});
    }
  }
}

std::vector<BpfProgramRun> OwnBpfPrograms::read() const {
  std::vector<BpfProgramRun> programs;
  for (const auto& held : held_) {
    auto program = reader_(held.fd);
    if (program && program->id == held.id) programs.push_back(std::move(*program));
  }
  std::sort(programs.begin(), programs.end(), [](const BpfProgramRun& a, const BpfProgramRun& b) {
    return a.name != b.name ? a.name < b.name : a.id < b.id;
  });
  return programs;
}

#if FLIGHTREC_HAVE_EBPF

std::optional<BpfProgramRun> read_bpf_program(int fd) {
  bpf_prog_info info{};
  uint32_t size = sizeof info;
  if (bpf_obj_get_info_by_fd(fd, &info, &size) != 0) return std::nullopt;
  return BpfProgramRun{.id = info.id,
                       .name = std::string(info.name, strnlen(info.name, sizeof info.name)),
                       .run_time_ns = info.run_time_ns,
                       .run_count = info.run_cnt};
}

BpfStatsSwitch::BpfStatsSwitch() {
  const int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);  // -errno on failure
  if (fd >= 0) {
    fd_ = Fd(fd);
  } else {
    why_not_ = std::string("BPF_ENABLE_STATS: ") + std::strerror(-fd) +
               permission_note(fd, {CAP_SYS_ADMIN});
  }
}

#else

std::optional<BpfProgramRun> read_bpf_program(int /*fd*/) { return std::nullopt; }

BpfStatsSwitch::BpfStatsSwitch() : why_not_(FLIGHTREC_EBPF_UNAVAILABLE) {}

#endif

}  // namespace flightrec::ebpf
