// Bytes per stored value of a real recording: the default sources at 1 ms into the ring for N
// seconds (default 60) while a moderate synthetic load runs (a CPU burner at ~30% duty, a writer
// that writes and fsyncs a file, a loopback UDP sender), so counters really move.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "flightrec/common/fd.h"
#include "flightrec/config/config.h"
#include "flightrec/recorder/recorder.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/system_sources.h"
#include "flightrec/store/ring.h"

using namespace flightrec;
using namespace std::chrono_literals;

namespace {

void burn_cpu(const std::atomic<bool>& done) {
  while (!done) {
    const int64_t until = bench::monotonic_ns() + 30'000'000;
    while (bench::monotonic_ns() < until) {
    }
    std::this_thread::sleep_for(70ms);
  }
}

void write_files(const std::atomic<bool>& done) {
  const auto path = std::filesystem::temp_directory_path() / "flightrec_bench_write";
  const std::string block(1 << 20, 'x');
  while (!done) {
    Fd fd(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (fd) {
      [[maybe_unused]] auto n = write(fd.get(), block.data(), block.size());
      fsync(fd.get());
    }
    std::this_thread::sleep_for(200ms);
  }
  std::filesystem::remove(path);
}

void send_udp(const std::atomic<bool>& done) {
  Fd sock(socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(9);  // discard: nobody listens, the bytes still cross lo
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::string payload(1200, 'u');
  while (!done) {
    for (int i = 0; i < 50; ++i) {
      sendto(sock.get(), payload.data(), payload.size(), 0, reinterpret_cast<sockaddr*>(&to),
             sizeof to);
    }
    std::this_thread::sleep_for(10ms);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::stoi(argv[1]) : 60;
  const config::Config defaults;
  auto opened = sampler::open_system_sources({}, defaults.sources);
  sampler::Sampler sampler(std::move(opened.sources), defaults.sampler.rate);
  sampler::FrameQueue queue(sampler.schema().size(), 1000);
  store::Ring ring({.series = static_cast<uint32_t>(sampler.schema().size()),
                    .rate = defaults.sampler.rate,
                    .duration = defaults.buffer.duration,
                    .max_bytes = defaults.buffer.max_bytes});
  recorder::Recorder recorder(queue, ring, sampler.schema(), defaults.sampler.rate,
                              defaults.export_.window);

  std::atomic<bool> done{false};
  std::vector<std::thread> load;
  load.emplace_back(burn_cpu, std::cref(done));
  load.emplace_back(write_files, std::cref(done));
  load.emplace_back(send_udp, std::cref(done));

  StopSignal stop;
  std::thread recorder_thread([&] { recorder.run(stop); });
  std::thread sampler_thread(
      [&] { sampler.run(queue, stop, static_cast<uint64_t>(seconds) * 1000); });
  sampler_thread.join();
  stop.request();
  recorder_thread.join();
  done = true;
  for (auto& t : load) t.join();

  const store::RingStats stats = ring.stats();
  // Unbound device slots hold kAbsent and cost ~0 bytes: report per present value too, honestly.
  uint64_t present = 0;
  std::vector<int64_t> column;
  for (const auto& block : ring.snapshot().blocks()) {
    for (uint32_t s = 0; s < block->series(); ++s) {
      block->decode_series(s, column);
      for (int64_t v : column) present += v != sampler::kAbsent ? 1 : 0;
    }
  }
  std::printf("recorded %lu frames x %zu series in %d s (missed %lu, overflows %lu)\n",
              static_cast<unsigned long>(stats.frames), sampler.schema().size(), seconds,
              static_cast<unsigned long>(sampler.stats().missed_ticks.load()),
              static_cast<unsigned long>(sampler.stats().queue_overflows.load()));
  std::printf(
      "ring: %lu blocks, %.2f MB encoded, %.2f MB held\n", static_cast<unsigned long>(stats.blocks),
      static_cast<double>(stats.encoded_bytes) / 1e6, static_cast<double>(stats.bytes) / 1e6);
  std::printf("bytes per stored value: %.4f  (target <= 2)\n", stats.bytes_per_value());
  std::printf("bytes per present (non-absent) value: %.4f  (%lu of %lu values present)\n",
              static_cast<double>(stats.encoded_bytes) / static_cast<double>(present),
              static_cast<unsigned long>(present), static_cast<unsigned long>(stats.values));
  std::printf("projected ring for buffer.duration=10m: %.1f MB\n",
              static_cast<double>(stats.bytes) / static_cast<double>(stats.frames) * 600000 / 1e6);
  return 0;
}
