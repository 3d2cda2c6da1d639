#include "flightrec/app/top.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "flightrec/common/utf8.h"

using namespace flightrec;
using app::parse_top_args;
using app::render_top;
using app::TopContext;
using process::NetCounters;
using process::ProcessFrame;
using process::ProcessRow;

namespace {

ProcessRow row(int32_t pid, const char* comm, uint64_t cpu_ns,
               std::optional<NetCounters> net = std::nullopt) {
  ProcessRow r;
  r.pid = pid;
  r.comm = comm;
  r.state = 'S';
  r.cpu_user_ns = cpu_ns;
  r.rss_bytes = 1 << 20;
  r.net = net;
  return r;
}

process::UserNames fixed_users() {
  return process::UserNames([](uint32_t uid) -> std::optional<std::string> {
    return uid == 0 ? std::optional<std::string>("root") : std::nullopt;
  });
}

// The data lines of a screen (after the column header), first word and last word of each.
std::vector<std::pair<std::string, std::string>> table(const std::string& screen) {
  std::istringstream in(screen);
  std::string line;
  std::vector<std::pair<std::string, std::string>> out;
  bool past_header = false;
  while (std::getline(in, line)) {
    if (line.find("PID") != std::string::npos) {
      past_header = true;
      continue;
    }
    if (!past_header) continue;
    std::istringstream words(line);
    std::string first, word, last;
    words >> first;
    while (words >> word) last = word;
    out.emplace_back(first, last);
  }
  return out;
}

}  // namespace

TEST_CASE("top sorts processes by the CPU they used between two frames", "[top]") {
  ProcessFrame before, now;
  before.time_unix_ns = 0;
  before.processes = {row(1, "init", 0), row(2, "busy", 0), row(3, "half", 0)};
  now.time_unix_ns = 1'000'000'000;
  now.processes = {row(1, "init", 0), row(2, "busy", 900'000'000), row(3, "half", 400'000'000)};
  auto users = fixed_users();
  const std::string screen = render_top(&before, now, false, {}, users);
  const auto lines = table(screen);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == std::pair<std::string, std::string>{"2", "busy"});
  CHECK(lines[1].first == "3");
  CHECK(screen.find(" 90.0 ") != std::string::npos);
  CHECK(screen.find("Tasks: 3 total") != std::string::npos);
}

TEST_CASE("top shows a process started between the frames with the CPU it used since", "[top]") {
  constexpr int64_t kSecond = 1'000'000'000;
  ProcessFrame before, now;
  before.time_unix_ns = 10 * kSecond;
  auto old = row(5, "old", 3 * kSecond);
  old.start_time_unix_ns = kSecond;
  before.processes = {old};
  auto reused = row(5, "reused", 500'000'000);  // pid 5 again, started before `before`: no rate
  reused.start_time_unix_ns = 2 * kSecond;
  auto born = row(6, "born", 300'000'000);  // 0.3 s of CPU in the 1 s since `before`
  born.start_time_unix_ns = 10 * kSecond + kSecond / 2;
  now.time_unix_ns = 11 * kSecond;
  now.processes = {reused, born};
  auto users = fixed_users();
  const std::string screen = render_top(&before, now, false, {}, users);
  const auto lines = table(screen);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == std::pair<std::string, std::string>{"6", "born"});
  CHECK(screen.find(" 30.0 ") != std::string::npos);
  CHECK(screen.find("  0.0 ") != std::string::npos);  // the reused pid
}

TEST_CASE("top --net counts a reused pid's traffic only when its process started since", "[top]") {
  constexpr int64_t kSecond = 1'000'000'000;
  ProcessFrame before, now;
  before.time_unix_ns = 10 * kSecond;
  auto old = row(20, "old", 0, NetCounters{1000, 0, 1, 0});
  old.start_time_unix_ns = kSecond;
  before.processes = {old};
  auto reused = row(20, "reused", 0, NetCounters{9000, 0, 9, 0});
  reused.start_time_unix_ns = 2 * kSecond;  // started before `before`, yet not in it
  auto born = row(21, "born", 0, NetCounters{0, 4096, 0, 4});
  born.start_time_unix_ns = 10 * kSecond + 1;
  now.time_unix_ns = 12 * kSecond;
  now.processes = {reused, born};
  auto users = fixed_users();
  const std::string screen = render_top(&before, now, true, {}, users);
  const auto lines = table(screen);
  REQUIRE(lines.size() == 2);  // born, TOTAL; no rate for the reused pid
  CHECK(lines[0].first == "21");
  // 4 KiB and 4 packets in 2 s: 4.0 KB received, 2.0 KB/s.
  CHECK(screen.find("       0        4        0.0        4.0        0.0        2.0 born") !=
        std::string::npos);
}

TEST_CASE("top --net lists only processes that moved traffic, biggest first, with totals",
          "[top]") {
  ProcessFrame before, now;
  before.time_unix_ns = 0;
  before.processes = {row(10, "idle", 0, NetCounters{100, 100, 1, 1}),
                      row(11, "small", 0, NetCounters{0, 0, 0, 0})};
  now.time_unix_ns = 2'000'000'000;
  now.processes = {row(10, "idle", 0, NetCounters{100, 100, 1, 1}),
                   row(11, "small", 0, NetCounters{2048, 0, 2, 0}),
                   row(12, "big", 0, NetCounters{0, 10240, 0, 8})};
  now.unattributed = NetCounters{0, 512, 0, 1};
  TopContext context;
  context.backend = "ebpf";
  auto users = fixed_users();
  const std::string screen = render_top(&before, now, true, context, users);
  const auto lines = table(screen);
  REQUIRE(lines.size() == 4);  // big, small, TOTAL, UNATTRIBUTED; idle moved nothing
  CHECK(lines[0].first == "12");
  CHECK(lines[1].first == "11");
  CHECK(screen.find("backend: ebpf") != std::string::npos);
  // small sent 2 KiB in 2 s: 2.0 KB and 1.0 KB/s.
  CHECK(screen.find("       2.0        0.0        1.0        0.0 small") != std::string::npos);
  CHECK(lines[2].second == "(attributed)");
  CHECK(lines[3].second == "UNATTRIBUTED");
}

// A process chooses its own name and arguments: they must not retitle the terminal (OSC 0),
// recolour it, or split a row in two.
TEST_CASE("top shows names, users and devices printable, one row per process", "[top]") {
  ProcessFrame before, now;
  before.time_unix_ns = 0;
  now.time_unix_ns = 1'000'000'000;
  auto hostile = row(7, "ux\xff", 500'000'000, NetCounters{1024, 0, 1, 0});
  hostile.cmdline = "sh -c \x1b]0;pwn\x07\nsecond caf\xc3\xa9\xff";
  hostile.uid = 1;
  hostile.net_device = "e\x1b[2J";
  before.processes = {row(7, "ux\xff", 0, NetCounters{0, 0, 0, 0})};
  now.processes = {hostile};
  auto users =
      process::UserNames([](uint32_t) -> std::optional<std::string> { return "u\x1b[1m"; });
  for (const bool net : {false, true}) {
    const std::string screen = render_top(&before, now, net, {}, users);
    INFO(screen);
    CHECK(table(screen).size() == (net ? 2 : 1));  // the process (and TOTAL)
    CHECK(screen.find_first_of("\x1b\x07") == std::string::npos);
    CHECK(flightrec::is_valid_utf8(screen));
    CHECK(screen.find("sh -c ?]0;pwn??second caf\xc3\xa9?") != std::string::npos);
    CHECK(screen.find(net ? " e?[2J " : " u?[1m ") != std::string::npos);
  }
}

TEST_CASE("top's flags are checked and name what was wrong", "[top]") {
  auto ok = parse_top_args({"--net", "--batch", "-n", "3", "-d", "0.5", "--backend=sock_diag"});
  REQUIRE(ok);
  CHECK(ok->options.net);
  CHECK(ok->options.batch);
  CHECK(ok->options.iterations == 3);
  CHECK(ok->options.delay == std::chrono::milliseconds(500));
  CHECK(ok->options.backend == "sock_diag");
  CHECK(parse_top_args({"-n", "x"}).error() == "top: -n: \"x\" is not a whole number");
  CHECK(parse_top_args({"-d", "0"}).error() == "top: -d: \"0\" is not a delay between 10ms and 1h");
  CHECK(parse_top_args({"--backend", "pcap"}).error() ==
        "top: --backend: \"pcap\" is not auto, ebpf or sock_diag");
  CHECK(parse_top_args({"--frobnicate"}).error() ==
        "top: unknown flag --frobnicate (see flightrec top --help)");
  CHECK(parse_top_args({"-n"}).error() == "top: flag -n needs a value");
  CHECK(parse_top_args({"-n", "0"}).error() ==
        "top: -n: 0 prints nothing; leave -n out to run until interrupted");
  CHECK(parse_top_args({"--iterations=2", "--delay=250ms"})->options.iterations == 2);
  CHECK(parse_top_args({"-b", "--help"})->help);
  CHECK(parse_top_args({"--config.file=/etc/x.yaml"})->options.config_file == "/etc/x.yaml");
}
