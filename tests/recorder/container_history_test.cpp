// The container tier's history: each slow round pushes one frame into the container ring, with
// the fast tier's reads since the round before and the throttling episodes of its containers.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <map>
#include <string>

#include "fake_proc_tree.h"
#include "flightrec/container/frame/container_frame_codec.h"
#include "flightrec/recorder/container_recorder.h"
#include "flightrec/store/container_ring.h"

using namespace flightrec;
using namespace flightrec::recorder;
using flightrec::testing::FakeProcTree;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kMs = 1'000'000;
const std::string kA = "3f9c1e0b7d2a4c5e8f6a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3e4f5a6";
const std::string kB = "b7e2d4c6a8f0e1d3c5b7a9f1e3d5c7b9a1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1";
const std::string kADir = "system.slice/docker-" + kA + ".scope";
const std::string kBDir = "system.slice/docker-" + kB + ".scope";

std::unique_ptr<ContainerRecorder> open_tier(const FakeProcTree& tree) {
  ContainerTierSettings settings;
  settings.rate = 100ms;
  settings.fast_rate = 10ms;
  settings.fast_max = 1;
  settings.discovery_interval = 100ms;
  settings.window = 1s;
  sampler::ProcRoot root;
  root.cgroupfs = tree.root();
  auto tier = ContainerRecorder::open(std::move(settings), root);
  INFO((tier ? "" : tier.error()));
  REQUIRE(tier.ok());
  return std::move(*tier);
}

std::string cpu_stat(int64_t usage_us, int64_t periods, int64_t throttled, int64_t throttled_us) {
  return "usage_usec " + std::to_string(usage_us) + "\nuser_usec 0\nsystem_usec 0\nnr_periods " +
         std::to_string(periods) + "\nnr_throttled " + std::to_string(throttled) +
         "\nthrottled_usec " + std::to_string(throttled_us) + "\n";
}

std::vector<container::ContainerFrame> decoded(const store::ContainerRing& ring) {
  std::vector<container::ContainerFrame> frames;
  for (const auto& stored : ring.frames()) {
    auto frame = container::decode_container_frame(stored->bytes);
    REQUIRE(frame);
    CHECK(frame->time_unix_ns == stored->time_unix_ns);
    frames.push_back(*std::move(frame));
  }
  return frames;
}

const container::ContainerRow* row(const container::ContainerFrame& frame, const std::string& id) {
  for (const auto& r : frame.containers) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

uint64_t inode(const std::filesystem::path& path) {
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  return info.st_ino;
}

// Hands out the episodes a test queued, as the kernel's buffer would.
class QueuedEpisodes final : public container::EpisodeRecorder {
 public:
  explicit QueuedEpisodes(std::vector<container::ThrottleEpisode>& queue) : queue_(queue) {}
  void drain(std::vector<container::ThrottleEpisode>& out) override {
    out.insert(out.end(), queue_.begin(), queue_.end());
    queue_.clear();
  }
  [[nodiscard]] const std::map<uint64_t, container::ThrottleTotals>& totals() const override {
    return totals_;
  }
  [[nodiscard]] std::vector<container::ThrottleSpan> throttled_now() const override { return {}; }
  [[nodiscard]] container::ThrottleLosses losses() const override { return {}; }

 private:
  std::vector<container::ThrottleEpisode>& queue_;
  std::map<uint64_t, container::ThrottleTotals> totals_;
};

}  // namespace

TEST_CASE("shouldPushAFramePerSlowRoundWithTheFastReadsBetween",
          "[recorder][containers][history]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  const std::string a_stat = kADir + "/cpu.stat";
  tree.file(a_stat, cpu_stat(1'000'000, 100, 50, 4'000'000));
  store::ContainerRing ring({});
  auto tier = open_tier(tree);
  tier->record_into(ring);
  tier->tick(0);
  tree.file(a_stat, cpu_stat(1'020'000, 101, 51, 4'080'000));
  for (int64_t t = 10; t <= 100; t += 10) tier->tick(t * kMs);  // A is throttled: fast from here
  for (int64_t t = 110; t < 200; t += 10) {
    tree.file(a_stat, cpu_stat(1'020'000 + t, 101 + t / 100, 51, 4'080'000));
    tier->tick(t * kMs);
  }
  tier->tick(200 * kMs);

  const auto frames = decoded(ring);
  REQUIRE(frames.size() == 3);
  for (size_t i = 1; i < frames.size(); ++i) {
    CHECK(frames[i].mono_ns == static_cast<int64_t>(i) * 100 * kMs);
    // Wall time follows the monotonic rounds (the clocks' offset moves by microseconds at most).
    CHECK(std::abs(frames[i].time_unix_ns - frames[i - 1].time_unix_ns - 100 * kMs) < kMs);
  }
  const container::ContainerFrame& last = frames.back();
  CHECK(last.mode == container::CgroupMode::unified);
  REQUIRE(last.containers.size() == 2);
  const auto* a = row(last, kA);
  REQUIRE(a != nullptr);
  CHECK(a->path == "/" + kADir);
  CHECK(a->runtime == container::Runtime::docker);
  CHECK(a->cgroup_id == inode(tree.root() / kADir));
  CHECK(a->read_ok);
  CHECK(a->fast);
  CHECK(a->stats.cpu.usage_us == 1'020'190);
  CHECK(a->stats.bandwidth.quota_us == 200000);
  // The frame before: the round that found A throttled, 80 ms of its 100 ms period.
  CHECK(*row(frames[1], kA)->throttled_share == Approx(0.8));
  CHECK(frames[1].fast_reads.empty());
  // The fast tier read A nine times between the two rounds, each in this frame.
  REQUIRE(last.fast_reads.size() == 9);
  for (size_t i = 0; i < last.fast_reads.size(); ++i) {
    const container::FastRead& read = last.fast_reads[i];
    CHECK(last.containers[read.row].id == kA);
    CHECK(read.usage_us == 1'020'110 + 10 * static_cast<int64_t>(i));
    CHECK(read.throttled_periods == 51);
    CHECK(read.memory_usage_bytes == sampler::kAbsent);  // here for its CPU, not its memory
    const int64_t before_frame = last.time_unix_ns - read.time_unix_ns;
    CHECK(std::abs(before_frame - (90 - 10 * static_cast<int64_t>(i)) * kMs) < kMs);
  }
  // No episode recorder: the frames say so.
  CHECK_FALSE(last.episodes_recorded);
  CHECK(last.episodes.empty());
}

TEST_CASE("shouldRecordEachFrameWithItsOwnContainers", "[recorder][containers][history]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  store::ContainerRing ring({});
  auto tier = open_tier(tree);
  tier->record_into(ring);
  tier->tick(0);
  tree.remove(kBDir);
  const std::string kC = std::string(64, 'c');
  tree.file("system.slice/docker-" + kC + ".scope/cpu.stat", cpu_stat(7, 0, 0, 0));
  tree.file("system.slice/docker-" + kC + ".scope/cgroup.procs", "");
  tier->tick(100 * kMs);
  const auto frames = decoded(ring);
  REQUIRE(frames.size() == 2);
  CHECK(row(frames[0], kB) != nullptr);
  CHECK(row(frames[0], kC) == nullptr);
  CHECK(row(frames[1], kB) == nullptr);
  REQUIRE(row(frames[1], kC) != nullptr);
  CHECK(row(frames[1], kC)->stats.cpu.usage_us == 7);
}

TEST_CASE("shouldAttachTheEpisodesOfItsContainersToTheFrame", "[recorder][containers][history]") {
  const FakeProcTree tree = FakeProcTree::copy_of("cgroup/v2-systemd-docker");
  store::ContainerRing ring({});
  std::vector<container::ThrottleEpisode> queue;
  auto tier = open_tier(tree);
  tier->record_into(ring);
  tier->use_episode_recorder(std::make_unique<QueuedEpisodes>(queue));
  tier->tick(0);
  const uint64_t a_id = inode(tree.root() / kADir);
  container::ThrottleEpisode episode;
  episode.cgroup_id = a_id;
  episode.start_ns = 20 * kMs;
  episode.end_ns = 100 * kMs;
  episode.throttled_ns = 80 * kMs;
  episode.refills = 1;
  container::ThrottleEpisode elsewhere = episode;
  elsewhere.cgroup_id = a_id + 12345;  // a group on the host that is no tracked container
  queue = {episode, elsewhere};
  tier->tick(50 * kMs);  // drained here, between two rounds
  tier->tick(100 * kMs);
  const auto frames = decoded(ring);
  REQUIRE(frames.size() == 2);
  CHECK(frames[0].episodes_recorded);
  CHECK(frames[0].episodes.empty());
  CHECK(frames[1].episodes_recorded);
  REQUIRE(frames[1].episodes.size() == 1);
  CHECK(frames[1].episodes[0] == episode);
  CHECK(container::find_by_cgroup_id(frames[1], a_id)->id == kA);
}
