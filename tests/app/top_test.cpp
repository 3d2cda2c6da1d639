#include "flightrec/app/top.h"

#include <catch2/catch.hpp>
#include <sstream>

#include "fake_proc_tree.h"
#include "flightrec/common/utf8.h"
#include "flightrec/sampler/file_reader.h"
#include "flightrec/sampler/sampler.h"
#include "flightrec/sampler/sources/loadavg.h"
#include "flightrec/sampler/sources/meminfo.h"
#include "flightrec/sampler/sources/stat.h"

using namespace flightrec;
using app::apply_key;
using app::initial_view;
using app::parse_top_args;
using app::render_top;
using app::TopColumn;
using app::TopContext;
using app::TopView;
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
  CHECK(parse_top_args({"--dealy=1s"}).error() ==
        "top: unknown flag --dealy; did you mean --delay? (see flightrec top --help)");
  CHECK(parse_top_args({"-n"}).error() == "top: flag -n needs a value");
  CHECK(parse_top_args({"-n", "0"}).error() ==
        "top: -n: 0 prints nothing; leave -n out to run until interrupted");
  CHECK(parse_top_args({"--iterations=2", "--delay=250ms"})->options.iterations == 2);
  CHECK(parse_top_args({"-b", "--help"})->help);
  CHECK(parse_top_args({"--config.file=/etc/x.yaml"})->options.config_file == "/etc/x.yaml");
}

namespace {

// A frame of four processes whose CPU, memory and threads each put a different one first.
struct SortFrames {
  ProcessFrame before, now;
  SortFrames() {
    before.time_unix_ns = 0;
    now.time_unix_ns = 1'000'000'000;
    auto a = row(10, "cpu_hog", 0);
    auto b = row(20, "mem_hog", 0);
    auto c = row(30, "old_timer", 0);
    auto d = row(5, "threads", 0);
    before.processes = {a, b, c, d};
    a.cpu_user_ns = 800'000'000;  // 80 % over the second
    b.rss_bytes = 200ull << 20;
    b.cpu_user_ns = 100'000'000;
    c.cpu_user_ns = 50'000'000;
    c.cpu_system_ns = 3'600'000'000'000;  // an hour of CPU time, from before the frames
    before.processes[2].cpu_system_ns = 3'600'000'000'000;
    d.threads = 64;
    now.processes = {a, b, c, d};
  }
  std::vector<std::string> pids(const TopView& view, bool net = false) {
    TopContext context;
    context.view = view;
    auto users = fixed_users();
    std::vector<std::string> out;
    for (const auto& [first, last] : table(render_top(&before, now, net, context, users))) {
      out.push_back(first);
    }
    return out;
  }
};

std::string header_of(const std::string& screen) {
  std::istringstream in(screen);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("PID") != std::string::npos) return line;
  }
  return "";
}

}  // namespace

TEST_CASE("top's keys choose the sort column, reverse it, show help and quit", "[top]") {
  TopView view = initial_view(false);
  CHECK(view.sort == TopColumn::cpu);
  CHECK(apply_key(view, 'M', false));
  CHECK(view.sort == TopColumn::mem);
  CHECK(apply_key(view, 'T', false));
  CHECK(view.sort == TopColumn::time);
  CHECK(apply_key(view, 'N', false));
  CHECK(view.sort == TopColumn::pid);
  CHECK_FALSE(apply_key(view, '<', false));  // PID is the first column: nothing to its left
  CHECK(apply_key(view, '>', false));
  CHECK(view.sort == TopColumn::user);
  CHECK(apply_key(view, 'P', false));
  CHECK(view.sort == TopColumn::cpu);
  CHECK(apply_key(view, '<', false));
  CHECK(view.sort == TopColumn::user);
  CHECK(apply_key(view, 'R', false));
  CHECK(view.reversed);
  CHECK(apply_key(view, 'M', false));  // a new column starts in its own direction
  CHECK_FALSE(view.reversed);
  CHECK_FALSE(apply_key(view, 'x', false));
  CHECK(apply_key(view, 'h', false));
  CHECK(view.help);
  CHECK(apply_key(view, 'q', false));  // any key leaves the help, q included
  CHECK_FALSE(view.help);
  CHECK_FALSE(view.quit);
  CHECK(apply_key(view, '?', false));
  CHECK(apply_key(view, 'P', false));
  CHECK(view.sort == TopColumn::mem);  // the key only closed the help
  CHECK_FALSE(apply_key(view, 'q', false));
  CHECK(view.quit);
}

TEST_CASE("top --net's keys step through its own columns", "[top]") {
  TopView view = initial_view(true);
  CHECK(view.sort == TopColumn::total);
  CHECK_FALSE(apply_key(view, 'M', true));  // no memory column with --net
  CHECK_FALSE(apply_key(view, '>', true));  // TX+RX is the last
  CHECK(apply_key(view, '<', true));
  CHECK(view.sort == TopColumn::rx_bytes);
  CHECK(apply_key(view, '<', true));
  CHECK(view.sort == TopColumn::tx_bytes);
  CHECK(apply_key(view, 'N', true));
  CHECK(view.sort == TopColumn::pid);
}

TEST_CASE("top sorts by the chosen column and marks it in the header", "[top]") {
  SortFrames frames;
  TopView view = initial_view(false);
  CHECK(frames.pids(view) == std::vector<std::string>{"10", "20", "30", "5"});
  apply_key(view, 'M', false);
  CHECK(frames.pids(view).front() == "20");
  apply_key(view, 'T', false);
  CHECK(frames.pids(view).front() == "30");
  apply_key(view, 'N', false);
  CHECK(frames.pids(view) == std::vector<std::string>{"5", "10", "20", "30"});
  apply_key(view, 'R', false);
  CHECK(frames.pids(view) == std::vector<std::string>{"30", "20", "10", "5"});
  view = {.sort = TopColumn::threads};
  CHECK(frames.pids(view).front() == "5");

  TopContext context;
  auto users = fixed_users();
  context.view = {.sort = TopColumn::mem};
  CHECK(header_of(render_top(&frames.before, frames.now, false, context, users)) ==
        "    PID USER       S  %CPU *%MEM    RSS   VIRT  THR     TIME+ COMMAND");
  context.view = {.sort = TopColumn::user};
  CHECK(header_of(render_top(&frames.before, frames.now, false, context, users)) ==
        "    PID USER*      S  %CPU  %MEM    RSS   VIRT  THR     TIME+ COMMAND");
}

TEST_CASE("top --net sorts by TX, RX or both and marks what it sorts by", "[top]") {
  ProcessFrame before, now;
  before.time_unix_ns = 0;
  before.processes = {row(1, "sender", 0, NetCounters{0, 0, 0, 0}),
                      row(2, "receiver", 0, NetCounters{0, 0, 0, 0}),
                      row(3, "both", 0, NetCounters{0, 0, 0, 0})};
  now.time_unix_ns = 1'000'000'000;
  now.processes = {row(1, "sender", 0, NetCounters{9000, 0, 9, 0}),
                   row(2, "receiver", 0, NetCounters{0, 8000, 0, 8}),
                   row(3, "both", 0, NetCounters{6000, 6000, 6, 6})};
  auto users = fixed_users();
  TopContext context;
  const auto order = [&](TopColumn column) {
    context.view = {.sort = column};
    const std::string screen = render_top(&before, now, true, context, users);
    std::string pids;
    for (const auto& [first, last] : table(screen)) {
      if (last != "(attributed)") pids += first;
    }
    return std::pair{pids, header_of(screen)};
  };
  const auto [total, total_header] = order(TopColumn::total);
  CHECK(total == "312");
  CHECK(total_header ==
        "    PID   UID DEV         XMIT_PK  RECV_PK   *XMIT_KB   *RECV_KB  XMIT_KB/s  RECV_KB/s "
        "COMMAND");
  const auto [tx, tx_header] = order(TopColumn::tx_bytes);
  CHECK(tx == "132");
  CHECK(tx_header.find("   *XMIT_KB    RECV_KB ") != std::string::npos);
  CHECK(order(TopColumn::rx_bytes).first == "231");
  CHECK(order(TopColumn::pid).first == "123");
}

// Two reads of a fixture /proc through the system sources, the CPU counters moved in between:
// 200 hundredths of CPU time, 60 user, 20 system, 100 idle, 10 iowait, 5 softirq, 5 steal.
TEST_CASE("top's summary lines come from two samples of the system sources", "[top]") {
  const auto proc = flightrec::testing::FakeProcTree::copy_of("proc-debian12-vm");
  const sampler::ProcRoot root{.procfs = proc.root()};
  std::vector<std::unique_ptr<sampler::Source>> sources;
  sources.push_back(sampler::make_stat_source(root));
  sources.push_back(sampler::make_loadavg_source(root));
  sources.push_back(sampler::make_meminfo_source(root));
  sampler::Sampler sampler(std::move(sources), std::chrono::milliseconds(10));
  std::vector<int64_t> before(sampler.schema().size());
  std::vector<int64_t> now(sampler.schema().size());
  sampler.sample_once(before);
  const std::string stat = sampler::read_file(proc.root() / "stat");
  REQUIRE(stat.starts_with("cpu  23440 0 3384 125806 355 0 58 29 0 0\n"));
  proc.file("stat",
            "cpu  23500 0 3404 125906 365 0 63 34 0 0\n" + stat.substr(stat.find('\n') + 1));
  sampler.sample_once(now);

  const auto summary =
      app::top_summary(sampler.schema(), before, now, 3 * 86'400 + 2 * 3'600 + 5 * 60);
  CHECK(summary.uptime_and_load == "up 3 days,  2:05,  load average: 0.82, 0.54, 0.26");
  CHECK(summary.lines ==
        "%Cpu(s): 30.0 us, 10.0 sy,  0.0 ni, 50.0 id,  5.0 wa,  0.0 hi,  2.5 si,  2.5 st\n"
        "MiB Mem :  24105.6 total,  21828.9 free,    190.5 used,   2086.1 buff/cache\n"
        "MiB Swap:      0.0 total,      0.0 free,      0.0 used.  23643.9 avail Mem\n");

  // One sample: no CPU split yet; no uptime: the load alone.
  const auto first = app::top_summary(sampler.schema(), {}, before, std::nullopt);
  CHECK(first.uptime_and_load == "load average: 0.82, 0.54, 0.26");
  CHECK(first.lines.starts_with("MiB Mem :"));
  CHECK(app::top_summary(sampler.schema(), {}, before, 17 * 60)
            .uptime_and_load.starts_with("up 17 min,  load"));

  // The screen puts them under its title, the Tasks line between, as top does.
  TopContext context;
  context.summary = summary;
  ProcessFrame frame;
  auto users = fixed_users();
  const std::string screen = render_top(nullptr, frame, false, context, users);
  CHECK(screen.find(" up 3 days,  2:05,  load average: 0.82, 0.54, 0.26\nTasks: 0 total") !=
        std::string::npos);
  CHECK(screen.find("2.5 st\nMiB Mem :") != std::string::npos);
}

TEST_CASE("top's help screen and --help list the keys", "[top]") {
  const std::string keys = app::top_keys_text();
  for (const char* key : {"  q ", "  h or ? ", "  M ", "  P ", "  T ", "  N ", "  < > ", "  R "}) {
    CHECK(keys.find(key) != std::string::npos);
  }
  TopView view{.sort = TopColumn::mem, .reversed = true};
  const std::string screen = app::top_help_screen(view, false);
  CHECK(screen.find(keys) != std::string::npos);
  CHECK(screen.find("Sorted by %MEM, reversed.") != std::string::npos);
  CHECK_THAT(app::usage_text(app::CommandKind::top), Catch::Matchers::Contains("\nKeys:\n" + keys));
}

TEST_CASE("top names each process's container in a CONTAINER column, only when one has one",
          "[top]") {
  ProcessFrame before;
  before.processes = {row(10, "web", 0), row(20, "shell", 0)};
  ProcessFrame now = before;
  now.processes[0].cpu_user_ns = 500'000'000;
  TopContext context;
  auto users = fixed_users();
  context.container_of = [](const ProcessRow& process) -> std::string {
    return process.pid == 10 ? "prod/checkout-7f9c8d6b5-x2kqp/app-with-a-long-name" : "";
  };
  const std::string screen = render_top(&before, now, false, context, users);
  CHECK(header_of(screen) ==
        "    PID USER       S *%CPU  %MEM    RSS   VIRT  THR     TIME+ CONTAINER"
        "                      COMMAND");
  // Cut to 30 columns; a process in no container shows "-".
  CHECK_THAT(screen, Catch::Matchers::Contains(" prod/checkout-7f9c8d6b5-x2kqp/ web\n"));
  CHECK_THAT(screen, Catch::Matchers::Contains(" -                              shell\n"));

  context.container_of = [](const ProcessRow&) { return std::string(); };
  CHECK(header_of(render_top(&before, now, false, context, users)) ==
        "    PID USER       S *%CPU  %MEM    RSS   VIRT  THR     TIME+ COMMAND");
}
