#include "flightrec/process/process_table.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "flightrec/process/boot_time.h"
#include "flightrec/sampler/file_reader.h"
#include "numbers.h"

namespace flightrec::process {
namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;

struct DirCloser {
  void operator()(DIR* dir) const noexcept { ::closedir(dir); }
};

int64_t ticks_to_ns(uint64_t ticks, int64_t user_hz) {
  const auto hz = static_cast<uint64_t>(user_hz);
  return static_cast<int64_t>(ticks / hz) * kNanosPerSecond +
         static_cast<int64_t>(ticks % hz) * kNanosPerSecond / user_hz;
}

}  // namespace

KernelUnits KernelUnits::from_sysconf() {
  KernelUnits units;
  const long hz = ::sysconf(_SC_CLK_TCK);
  const long page = ::sysconf(_SC_PAGESIZE);
  if (hz > 0) units.user_hz = hz;
  if (page > 0) units.page_size = page;
  return units;
}

ProcessTable::ProcessTable(sampler::ProcRoot root, KernelUnits units)
    : root_(std::move(root)), units_(units) {
  if (units_.user_hz <= 0 || units_.page_size <= 0) {
    throw std::invalid_argument("user_hz and page_size must be positive");
  }
  procfs_ = Fd(::open(root_.procfs.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!procfs_) {
    throw std::system_error(errno, std::generic_category(), "cannot open " + root_.procfs.string());
  }
  const std::filesystem::path stat_path = root_.proc("stat");
  const std::optional<int64_t> boot_time = parse_boot_time(sampler::read_file(stat_path));
  if (!boot_time) throw std::runtime_error(stat_path.string() + ": no valid btime line");
  boot_time_unix_s_ = *boot_time;
}

int ProcessTable::list_pids(std::vector<int32_t>& out) const {
  out.clear();
  // A fresh open of ".", not a dup: a dup would share its read offset with procfs_.
  const int fd = ::openat(procfs_.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return errno;
  const std::unique_ptr<DIR, DirCloser> dir(::fdopendir(fd));
  if (!dir) {
    const int error = errno;
    ::close(fd);
    return error;
  }
  errno = 0;
  while (const dirent* entry = ::readdir(dir.get())) {
    const std::optional<int32_t> pid = detail::parse_decimal<int32_t>(entry->d_name);
    if (pid && *pid > 0) out.push_back(*pid);
  }
  if (errno != 0) return errno;
  std::sort(out.begin(), out.end());
  return 0;
}

Result<std::optional<ProcessInfo>> ProcessTable::read(const PidDir& dir) const {
  using Read = Result<std::optional<ProcessInfo>>;
  std::string bytes;
  std::filesystem::path path;
  const auto fetch = [&](const char* name, size_t max_bytes) {
    path = root_.procfs / std::to_string(dir.pid()) / name;
    return dir.read(name, bytes, max_bytes);
  };
  const auto unread = [&](int read_error) -> Read {
    if (process_vanished(read_error)) return std::optional<ProcessInfo>();
    return Error{path.string() + ": " + std::strerror(read_error)};
  };

  if (const int error = fetch("stat", PidDir::kUnbounded); error != 0) return unread(error);
  Result<PidStat> stat = parse_pid_stat(bytes);
  if (!stat.ok()) return Error{path.string() + ": " + stat.error()};
  if (const int error = fetch("status", PidDir::kUnbounded); error != 0) return unread(error);
  Result<PidStatus> status = parse_pid_status(bytes);
  if (!status.ok()) return Error{path.string() + ": " + status.error()};
  // One byte over the limit tells a command line that was cut from one that fits exactly.
  if (const int error = fetch("cmdline", kMaxCmdlineBytes + 1); error != 0) return unread(error);
  ProcessInfo out;
  out.stat = *std::move(stat);
  out.status = *std::move(status);
  out.cmdline = join_cmdline(bytes);
  out.start_time_unix_ns =
      boot_time_unix_s_ * kNanosPerSecond + ticks_to_ns(out.stat.starttime, units_.user_hz);
  return std::optional<ProcessInfo>(std::move(out));
}

ProcessScan ProcessTable::scan() const {
  ProcessScan scan;
  std::vector<int32_t> pids;
  if (const int error = list_pids(pids); error != 0) {
    scan.errors.push_back("cannot list " + root_.procfs.string() + ": " + std::strerror(error));
    return scan;
  }
  scan.listed = static_cast<uint32_t>(pids.size());
  scan.processes.reserve(pids.size());
  for (const int32_t pid : pids) {
    PidDir dir;
    if (const int open_error = open(pid, dir); open_error != 0) {
      if (process_vanished(open_error)) {
        ++scan.vanished;
      } else {
        scan.errors.push_back((root_.procfs / std::to_string(pid)).string() + ": " +
                              std::strerror(open_error));
      }
      continue;
    }
    auto info = read(dir);
    if (!info) {
      scan.errors.push_back(std::move(info).error());
    } else if (!info->has_value()) {
      ++scan.vanished;
    } else {
      scan.processes.push_back(**std::move(info));
    }
  }
  return scan;
}

}  // namespace flightrec::process
