// The loop of `flightrec top`: sample processes (and traffic), print a screen, sleep, repeat.
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <thread>

#include "flightrec/app/setup.h"
#include "flightrec/app/top.h"
#include "flightrec/common/utf8.h"
#include "flightrec/config/config.h"
#include "flightrec/network/traffic_backend.h"
#include "flightrec/process/process_sampler.h"
#include "flightrec/recorder/container_recorder.h"
#include "raw_terminal.h"
#include "system_summary.h"
#include "top_containers.h"

namespace flightrec::app {
namespace {

std::atomic<bool> interrupted{false};

void on_interrupt(int) { interrupted.store(true); }

uint64_t mem_total_bytes(const std::string& procfs) {
  std::ifstream meminfo(procfs + "/meminfo");
  std::string key;
  uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemTotal:") return kib * 1024;
    meminfo.ignore(256, '\n');
  }
  return 0;
}

// Sleeps `delay` in short steps so Ctrl-C ends the program at once.
void pause_for(std::chrono::nanoseconds delay) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (!interrupted.load() && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::min<std::chrono::nanoseconds>(
        std::chrono::milliseconds(20), until - std::chrono::steady_clock::now()));
  }
}

// The terminal's size, or 0x0 when standard output is not a terminal.
winsize terminal_size() {
  winsize size{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0) return {};
  return size;
}

// The first `columns` characters of `line`, one column each, never half of a UTF-8 sequence (the
// screen is valid UTF-8: render_top made every name printable).
std::string_view first_columns(std::string_view line, size_t columns) {
  size_t end = 0;
  for (size_t n = 0; n < columns && end < line.size(); ++n) {
    end += std::max<size_t>(utf8_sequence_length(line, end), 1);
  }
  return line.substr(0, end);
}

// Cuts a screen to the terminal, as top does: long command lines would wrap and scroll the header
// away. Batch output is never cut.
std::string fit(std::string_view screen, winsize size) {
  if (size.ws_col == 0 || size.ws_row == 0) return std::string(screen);
  std::string out;
  size_t lines = 0;
  for (size_t begin = 0; begin < screen.size() && lines + 1 < size.ws_row; ++lines) {
    size_t end = screen.find('\n', begin);
    if (end == std::string::npos) end = screen.size();
    out += first_columns(screen.substr(begin, end - begin), size.ws_col);
    out += '\n';
    begin = end + 1;
  }
  return out;
}

// Batch screens follow on, a blank line apart; others replace the last, cut to the terminal.
void write_screen(const std::string& text, bool batch) {
  if (batch) {
    std::cout << text << '\n';
  } else {
    // Clear and home the cursor between screens, as top does, in one string, so the terminal
    // gets the screen whole rather than cleared and then filled.
    std::cout << "\x1b[H\x1b[2J" + fit(text, terminal_size());
  }
  std::cout.flush();
}

// The longest a terminal waits for its first screen.
constexpr std::chrono::milliseconds kFirstScreen{500};

// Until `delay` passed, or q: applies each key as it comes, calling `redraw` when one changed
// the view (or `fg` brought top back over the shell's output), so a key is answered at once
// rather than at the next screen.
template <typename Redraw>
void answer_keys(detail::RawTerminal& terminal, TopView& view, bool net,
                 std::chrono::nanoseconds delay, Redraw redraw) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (!interrupted.load() && !view.quit) {
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::nanoseconds::zero()) return;
    // In steps, so that a signal's request to stop is seen soon even if poll is restarted.
    const auto step = std::chrono::ceil<std::chrono::milliseconds>(
        std::min<std::chrono::nanoseconds>(left, std::chrono::milliseconds(100)));
    bool changed = terminal.resumed();
    for (const char key : terminal.keys(step)) {
      changed |= apply_key(view, key, net);
      if (view.quit) return;
    }
    if (changed) redraw();
  }
}

// The traffic backend `top --net` samples with, its name in `context`; null, the reason said on
// standard error, when none can run.
std::unique_ptr<network::TrafficBackend> open_traffic(const TopOptions& options,
                                                      const config::Config& cfg,
                                                      const sampler::ProcRoot& root,
                                                      TopContext& context) {
  // `top --net` asks for traffic even when the daemon's config turned the backend off.
  const std::string& choice = options.backend.empty() ? cfg.network.backend : options.backend;
  auto backend =
      network::make_traffic_backend(choice == "off" ? "auto" : choice, root, context.note);
  if (!backend) {
    std::cerr << "flightrec top: no network backend can run here: " << context.note << '\n';
    return nullptr;
  }
  context.backend = std::string(backend->name());
  return backend;
}

}  // namespace

int run_top(const TopOptions& options, const Command& global) {
  Command command = global;
  if (options.config_file) command.config_file = options.config_file;
  if (options.procfs) command.procfs = *options.procfs;
  const Setup setup = load_setup(command);
  if (!setup.config) {
    for (const auto& error : setup.errors) std::cerr << error << '\n';
    return 1;
  }
  const config::Config& cfg = *setup.config;
  ::signal(SIGINT, on_interrupt);
  ::signal(SIGTERM, on_interrupt);
  ::signal(SIGHUP, on_interrupt);
  const sampler::ProcRoot root = proc_root_of(command);
  process::ProcessSampler sampler(
      root, {.redact_cmdline = cfg.processes.redact_cmdline, .max_count = cfg.processes.max_count});

  TopContext context;
  detail::TopContainerNames containers(recorder::container_tier_settings(cfg).names);
  context.container_of = [&](const process::ProcessRow& row) { return containers.name_of(row); };
  context.mem_total_bytes = mem_total_bytes(root.procfs.string());
  context.limit = options.limit != 0 ? options.limit : (options.batch ? 0 : 40);
  context.view = initial_view(options.net);
  std::unique_ptr<network::TrafficBackend> backend;
  if (options.net) {
    backend = open_traffic(options, cfg, root, context);
    if (!backend) return 1;
  }
  // The summary lines are the CPU screen's; --net reads no system source.
  std::optional<detail::SystemSummary> system;
  if (!options.net) system.emplace(root, cfg);

  process::UserNames users;
  network::TrafficReading reading;
  const auto take = [&](process::ProcessFrame& frame) {
    sampler.sample(frame);
    if (!backend) return;
    if (const Status read = backend->read(reading); read) {
      network::attach_traffic(frame, reading);
    } else {
      std::cerr << "flightrec top: " << read.error() << '\n';
    }
  };

  // Keys only from a person at a terminal: batch output and piped input run as before.
  std::optional<detail::RawTerminal> terminal =
      !options.batch && ::isatty(STDOUT_FILENO) != 0 ? detail::RawTerminal::open() : std::nullopt;

  process::ProcessFrame before, now;
  bool shown = false;  // a screen is on the terminal, which a key may redraw
  const auto show = [&] {
    write_screen(context.view.help ? top_help_screen(context.view, options.net)
                                   : render_top(&before, now, options.net, context, users),
                 options.batch);
    shown = true;
  };
  const auto wait = [&](std::chrono::nanoseconds delay) {
    if (!terminal) return pause_for(delay);
    answer_keys(*terminal, context.view, options.net, delay, [&] {
      if (shown) show();
    });
  };

  take(before);
  if (system) system->sample();
  for (uint32_t screen = 0; options.iterations == 0 || screen < options.iterations; ++screen) {
    if (shown) std::swap(before, now);  // the screen shown is the next one's start
    // A person at a terminal sees the first screen soon, as top's comes at once, rather than
    // after a long -d; its rates are over that shorter first interval.
    wait(terminal && !shown ? std::min<std::chrono::nanoseconds>(options.delay, kFirstScreen)
                            : options.delay);
    if (interrupted.load() || context.view.quit) break;
    take(now);
    if (system) context.summary = system->sample();
    show();
    if (!std::cout) return 1;
  }
  return 0;
}

}  // namespace flightrec::app
