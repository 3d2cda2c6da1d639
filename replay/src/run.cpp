#include "flightrec/replay/run.h"

#include <cstdlib>
#include <ostream>
#include <vector>

#include "flightrec/common/printable.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/replay/batch.h"
#include "flightrec/replay/http_fetch.h"
#include "flightrec/replay/model.h"
#include "flightrec/replay/session.h"
#include "tui/tui.h"

namespace flightrec::replay {
namespace {

Result<ReplayData> loaded(Result<recording::Recording> read, const std::string& prefix) {
  if (!read.ok()) return Error{prefix + read.error()};
  return from_recording(*std::move(read));
}

// The cursor --at names (with a note when it was outside the recording), else the trigger
// point, else the end.
Result<CursorPlace> initial_cursor(const Model& model, const std::string& at) {
  const Timeline& timeline = model.timeline();
  if (timeline.empty()) return CursorPlace{};
  if (!at.empty()) {
    const auto time = parse_cursor_time(at, timeline.start(), timeline.end());
    if (!time) return Error{"--at: " + time.error()};
    CursorPlace place = place_cursor(timeline, at, *time);
    if (!place.note.empty()) place.note = "--at " + place.note;
    return place;
  }
  if (!model.triggers().empty()) {
    return CursorPlace{timeline.at_or_before(model.triggers().front().focus_ns), {}};
  }
  return CursorPlace{timeline.size() - 1, {}};
}

// One line of `flightrec replay: <message>`: a message names the file or URL given, and quotes
// what the recording holds, any of which may hold control characters or bytes that are not UTF-8.
std::ostream& say(std::ostream& err, std::string_view message) {
  return err << "flightrec replay: " << escape_unprintable(message, Newlines::escape) << '\n';
}

bool is_url(std::string_view source) {
  return source.starts_with("http://") || source.starts_with("https://");
}

// The file or URL as errors name it: a URL without its password.
std::string source_for_display(const std::string& source) {
  return is_url(source) ? url_for_display(source) : source;
}

}  // namespace

Result<ReplayData> load_source(const std::string& source, const ClientCredentials& credentials) {
  if (is_url(source)) {
    const std::string url = recording_url(source);
    const auto fetched = http_get(url, {}, credentials);
    if (!fetched) return Error{fetched.error()};
    const auto* bytes = reinterpret_cast<const uint8_t*>(fetched->data());
    return loaded(recording::read_recording_blocks(std::span(bytes, fetched->size())),
                  url_for_display(url) + ": ");
  }
  return loaded(recording::read_recording_blocks(std::filesystem::path(source)), "");
}

int run_replay(const ReplayOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.batch && (::isatty(STDIN_FILENO) == 0 || ::isatty(STDOUT_FILENO) == 0)) {
    err << "flightrec replay: the interactive view needs a terminal (use --batch for text)\n";
    return 1;
  }
  const auto credentials = resolve_credentials(options.credentials, std::getenv);
  if (!credentials) {
    say(err, credentials.error());
    return 2;
  }
  auto load = load_source(options.source, *credentials);
  if (!load) {
    say(err, load.error());
    return 1;
  }
  const Model model(*std::move(load), system_user_names());
  const auto cursor = initial_cursor(model, options.at);
  if (!cursor) {
    say(err, cursor.error());
    return 2;
  }
  // An unknown --sort column is a usage error rather than a silent default.
  const Table columns =
      model.table(cursor->index, options.interval_ns, options.tab, {}, options.grow_span_ns);
  std::optional<size_t> sort;
  if (!options.sort.empty()) {
    sort = column_named(columns, options.sort);
    if (!sort) {
      std::string names;
      for (const auto& column : columns.columns) names += (names.empty() ? "" : ", ") + column.name;
      say(err, "--sort: the " + std::string(tab_name(options.tab)) + " tab has no column " +
                   quote_for_error(options.sort) + " (columns: " + names + ")");
      return 2;
    }
  }
  if (options.batch) {
    if (!cursor->note.empty()) say(err, "note: " + cursor->note);
    BatchView view;
    view.cursor = cursor->index;
    view.interval_ns = options.interval_ns;
    view.grow_span_ns = options.grow_span_ns;
    view.tab = options.tab;
    view.arrangement = {sort, options.reverse, options.filter, options.tree};
    out << render_batch(model, view, options.format);
    out.flush();
    // The process blocks shown were checked as they were decoded.
    if (!model.process_error().empty()) {
      say(err, source_for_display(options.source) + ": " + model.process_error());
      return 1;
    }
    return out ? 0 : 1;
  }
  Session session(model, cursor->index, options.tab, options.interval_ns);
  session.set_sort(sort, options.reverse);
  session.set_filter(options.filter);
  session.set_tree(options.tree && options.tab == Tab::processes);
  session.set_grow_span(options.grow_span_ns);
  // Only a note: an empty one would clear what the first rebuild said (a damaged process block).
  if (!cursor->note.empty()) session.show_message(cursor->note);
  // Opened at the trigger (no --at): an OOM kill's victim is what the user came to see.
  if (options.at.empty() && !model.triggers().empty()) {
    session.select_victim(model.triggers().front());
  }
  return tui::run(session);
}

int replay_command(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
  const auto parsed = parse_replay_args(args);
  if (!parsed) {
    say(err, parsed.error());
    return 2;
  }
  if (parsed->help) {
    out << replay_usage();
    return 0;
  }
  return run_replay(parsed->options, out, err);
}

}  // namespace flightrec::replay
