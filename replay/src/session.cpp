#include "flightrec/replay/session.h"

#include <algorithm>
#include <cmath>

#include "flightrec/replay/format.h"
#include "flightrec/replay/table_layout.h"

namespace flightrec::replay {
namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

}  // namespace

Session::Session(const Model& model, size_t cursor, Tab tab, int64_t interval_ns)
    : model_(model), cursor_(cursor), tab_(tab), interval_ns_(interval_ns) {
  rebuild();
}

size_t Session::sort_column() const { return sort_[tab_index(tab_)].value_or(table_.default_sort); }

bool Session::sort_descending() const {
  if (table_.columns.empty()) return true;
  return table_.columns[std::min(sort_column(), table_.columns.size() - 1)].descending_first !=
         reverse_[tab_index(tab_)];
}

void Session::set_page_rows(size_t rows) {
  page_rows_ = std::max<size_t>(rows, 1);
  select(selected_);
}

void Session::set_page_width(size_t width) {
  page_width_ = std::max<size_t>(width, 1);
  if (scroll_x_ > 0) scroll_x_ = std::min(scroll_x_, max_scroll_x());
}

void Session::show_message(std::string message) { message_ = std::move(message); }

// Far enough for the widest line's end to reach the screen's right edge.
size_t Session::max_scroll_x() const {
  const TableLayout layout = layout_table(table_, page_width_);
  size_t widest = layout_line(table_, layout, nullptr, Overflow::cut).size();
  for (const Row& row : table_.rows) {
    widest = std::max(widest, layout_line(table_, layout, &row, Overflow::cut).size());
  }
  return widest > page_width_ ? widest - page_width_ : 0;
}

// The setters rebuild the table only for a change: at 5,000 processes a rebuild is tens of ms,
// and replay sets each of them once before the first paint.
void Session::set_sort(std::optional<size_t> column, bool reverse) {
  if (sort_[tab_index(tab_)] != column || reverse_[tab_index(tab_)] != reverse) {
    sort_[tab_index(tab_)] = column;
    reverse_[tab_index(tab_)] = reverse;
    rebuild();
  }
  // A new order is asked for to see its top: go there, as htop does when a sort key is pressed.
  select(0);
}

void Session::set_filter(std::string filter) {
  if (filter == filter_) return;
  filter_ = std::move(filter);
  rebuild();
}

void Session::set_tree(bool tree) {
  if (tree == tree_) return;
  tree_ = tree;
  rebuild();
}

void Session::set_grow_span(int64_t span_ns) {
  if (span_ns == grow_span_ns_) return;
  grow_span_ns_ = span_ns;
  rebuild();
}

void Session::set_container(std::optional<ContainerScope> container) {
  container_ = std::move(container);
  rebuild();
}

void Session::rebuild() {
  const bool have_selection = selected_ < table_.rows.size();
  const int32_t selected_pid = have_selection ? table_.rows[selected_].pid : int32_t{-1};
  const std::string selected_key = have_selection ? table_.rows[selected_].key : std::string();
  system_ = model_.system(cursor_, interval_ns_);
  Arrangement how;
  how.filter = filter_;
  how.tree = tree_;
  how.container = container_;
  how.sort_column = sort_[tab_index(tab_)];
  how.reverse = reverse_[tab_index(tab_)];
  table_ = model_.table(cursor_, interval_ns_, tab_, how, grow_span_ns_);
  // Process blocks are checked as the cursor reaches them: say so the first time one is damaged.
  if (!damage_shown_ && !model_.process_error().empty()) {
    message_ = model_.process_error();
    damage_shown_ = true;
  }
  // The selection follows its process as the cursor moves, the way htop's follows a pid, and a
  // container by its cgroup path.
  const auto same = std::find_if(table_.rows.begin(), table_.rows.end(), [&](const Row& row) {
    return row.pid == selected_pid && row.key == selected_key;
  });
  select(same != table_.rows.end() ? static_cast<size_t>(same - table_.rows.begin()) : selected_);
}

void Session::select(size_t row) {
  selected_ = table_.rows.empty() ? 0 : std::min(row, table_.rows.size() - 1);
  if (selected_ < scroll_) scroll_ = selected_;
  if (selected_ >= scroll_ + page_rows_) scroll_ = selected_ + 1 - page_rows_;
}

void Session::move_cursor(size_t cursor) {
  if (model_.timeline().empty()) return;
  cursor_ = std::min(cursor, model_.timeline().size() - 1);
  carry_ns_ = 0;
  rebuild();
}

void Session::sort_by(std::string_view column) {
  const auto index = column_named(table_, column);
  if (!index) {
    message_ =
        "the " + std::string(tab_title(tab_)) + " tab has no " + std::string(column) + " column";
    return;
  }
  set_sort(*index, false);
}

void Session::find_next(bool include_current) {
  if (search_.empty()) return;
  const size_t count = table_.rows.size();
  for (size_t step = include_current ? 0 : 1; step <= count; ++step) {
    const size_t row = (selected_ + step) % std::max<size_t>(count, 1);
    if (row < count && row_matches(table_.rows[row], search_)) {
      select(row);
      message_.clear();
      return;
    }
  }
  message_ = "no match for \"" + search_ + "\"";
}

bool Session::advance(int64_t elapsed_ns) {
  if (!playing_ || model_.timeline().empty()) return false;
  const auto& timeline = model_.timeline();
  carry_ns_ += static_cast<int64_t>(std::llround(static_cast<double>(elapsed_ns) * speed()));
  const int64_t target = timeline.time(cursor_) + carry_ns_;
  const size_t next = timeline.at_or_before(target);
  if (next == cursor_) return false;
  const int64_t left = target - timeline.time(next);
  move_cursor(next);
  carry_ns_ = left;
  if (cursor_ + 1 == timeline.size()) {
    playing_ = false;
    message_ = "end of the recording";
  }
  return true;
}

void Session::handle_key(int key) {
  if (mode_ == Mode::help || mode_ == Mode::details) {
    mode_ = Mode::normal;
    return;
  }
  if (mode_ != Mode::normal) {
    prompt_key(key);
    return;
  }
  message_.clear();
  normal_key(key);
}

void Session::prompt_key(int key) {
  const bool done = key == keys::kEnter || key == '\r';
  const bool cancel = key == keys::kEscape;
  if (key == keys::kBackspace || key == 8) {
    if (!prompt_.empty()) prompt_.pop_back();
  } else if (!done && !cancel && key >= 0x20 && key < 0x7f) {
    prompt_ += static_cast<char>(key);
  }
  switch (mode_) {
    case Mode::search:
      search_ = cancel ? std::string() : prompt_;
      if (!cancel) find_next(true);  // incremental, as htop does
      break;
    case Mode::filter:
      if (cancel) prompt_.clear();
      set_filter(prompt_);
      break;
    case Mode::go_to:
      if (done && !prompt_.empty() && !model_.timeline().empty()) {
        const auto& timeline = model_.timeline();
        const auto time = parse_cursor_time(prompt_, timeline.start(), timeline.end());
        if (time) {
          const CursorPlace place = place_cursor(timeline, prompt_, *time);
          move_cursor(place.index);
          message_ = place.note;
        } else {
          message_ = time.error();
        }
      }
      break;
    case Mode::normal:
    case Mode::help:
    case Mode::details:
      break;
  }
  if (cancel) message_.clear();
  if (done || cancel) mode_ = Mode::normal;
}

void Session::normal_key(int key) {
  const auto action = action_of(key);
  if (!action) return;
  switch (*action) {
    case Action::help:
      mode_ = Mode::help;
      break;
    case Action::trigger_details:
      if (model_.triggers().empty()) {
        message_ = "this recording has no trigger point";
      } else {
        mode_ = Mode::details;
      }
      break;
    case Action::quit:
      quit_ = true;
      break;
    case Action::search:
      mode_ = Mode::search;
      prompt_.clear();
      break;
    case Action::next_match:
      find_next(false);
      break;
    case Action::filter:
      mode_ = Mode::filter;
      prompt_ = filter_;
      break;
    case Action::go_to:
      mode_ = Mode::go_to;
      prompt_.clear();
      break;
    default:
      if (!move_in_time(*action)) arrange(*action);
      break;
  }
}

bool Session::move_in_time(Action action) {
  const auto& timeline = model_.timeline();
  switch (action) {
    case Action::step_back:
    case Action::step_forward:
      move_cursor(timeline.step(cursor_, action == Action::step_back ? -1 : 1));
      return true;
    case Action::second_back:
    case Action::second_forward:
      move_cursor(
          timeline.step_time(cursor_, action == Action::second_back ? -kSecondNs : kSecondNs));
      return true;
    case Action::to_start:
      move_cursor(0);
      return true;
    case Action::to_end:
      move_cursor(timeline.empty() ? 0 : timeline.size() - 1);
      return true;
    case Action::play:
      playing_ = !playing_ && cursor_ + 1 < timeline.size();
      carry_ns_ = 0;
      return true;
    case Action::faster:
      speed_ = std::min(speed_ + 1, kSpeeds.size() - 1);
      return true;
    case Action::slower:
      speed_ = speed_ == 0 ? 0 : speed_ - 1;
      return true;
    case Action::next_trigger:
      jump_to_next_trigger();
      return true;
    default:
      return false;
  }
}

void Session::jump_to_next_trigger() {
  const auto& triggers = model_.triggers();
  if (triggers.empty()) {
    message_ = "this recording has no trigger point";
    return;
  }
  const Trigger& trigger = triggers[next_trigger_ % triggers.size()];
  next_trigger_ = (next_trigger_ + 1) % triggers.size();
  move_cursor(model_.timeline().at_or_before(trigger.focus_ns));
  message_ = "trigger: " + trigger.label;
  select_victim(trigger);
}

void Session::select_victim(const Trigger& trigger) {
  if (!trigger.oom_kill) return;
  // First in the message bar, which the screen cuts at its width: the trigger's label may follow.
  const std::string rest = message_.empty() ? std::string() : "; " + message_;
  if (trigger.victim_pid <= 0) {
    message_ = "OOM kill: no source named the victim" + rest;
    return;
  }
  show_tab(Tab::processes);
  const auto find_victim = [&] {
    return std::find_if(table_.rows.begin(), table_.rows.end(),
                        [&](const Row& row) { return row.pid == trigger.victim_pid; });
  };
  auto victim = find_victim();
  if (victim == table_.rows.end() && (!filter_.empty() || container_)) {
    filter_.clear();
    set_container(std::nullopt);
    victim = find_victim();
  }
  if (victim == table_.rows.end()) {
    message_ = "OOM kill: victim " + trigger.victim +
               " is in no process frame at the kill (it lived between two process ticks, or "
               "the process tier was off)" +
               rest;
    return;
  }
  select(static_cast<size_t>(victim - table_.rows.begin()));
  message_ = "OOM kill: victim " + trigger.victim + " selected" + rest;
}

void Session::arrange(Action action) {
  switch (action) {
    case Action::tree:
      if (tab_ != Tab::processes) {
        message_ = "tree view is for the Processes tab";
      } else {
        set_tree(!tree_);
      }
      break;
    case Action::sort_next:
    case Action::sort_previous: {
      const size_t columns = std::max<size_t>(table_.columns.size(), 1);
      const size_t now = sort_column();
      set_sort(
          action == Action::sort_previous ? (now + columns - 1) % columns : (now + 1) % columns,
          false);
      break;
    }
    case Action::sort_by_memory:
      sort_by("MEM%");
      break;
    case Action::sort_by_cpu:
      sort_by("CPU%");
      break;
    case Action::sort_by_time:
      sort_by("TIME+");
      break;
    case Action::invert_sort:
      set_sort(sort_column(), !reverse_[tab_index(tab_)]);
      break;
    case Action::next_interval: {
      const auto found = std::find(kIntervals.begin(), kIntervals.end(), interval_ns_);
      interval_ns_ =
          found == kIntervals.end() || found + 1 == kIntervals.end() ? kIntervals[0] : *(found + 1);
      rebuild();
      break;
    }
    case Action::next_grow_span: {
      const auto found = std::find(kGrowSpans.begin(), kGrowSpans.end(), grow_span_ns_);
      set_grow_span(found == kGrowSpans.end() || found + 1 == kGrowSpans.end() ? kGrowSpans[0]
                                                                               : *(found + 1));
      message_ = "RGROW over " + grow_span_text(grow_span_ns_);
      break;
    }
    case Action::next_tab:
    case Action::previous_tab:
      switch_tab(action == Action::next_tab ? 1 : std::size(kTabs) - 1);
      break;
    case Action::containers_tab:
      show_tab(Tab::containers);
      break;
    case Action::narrow_to_container:
      narrow_to_selected_container();
      break;
    case Action::all_processes:
      if (!container_) {
        message_ = "the Processes tab shows every process already";
        break;
      }
      message_ = "all processes again (were: " + container_->name + ")";
      set_container(std::nullopt);
      break;
    default:
      move_selection(action);
      break;
  }
}

void Session::switch_tab(size_t step) {
  tab_ = kTabs[(tab_index(tab_) + step) % std::size(kTabs)];
  selected_ = 0;
  scroll_ = 0;
  scroll_x_ = 0;
  rebuild();
}

void Session::show_tab(Tab tab) {
  if (tab_ == tab) return;
  // switch_tab steps through kTabs: the step from here to `tab`.
  switch_tab(tab_index(tab) + std::size(kTabs) - tab_index(tab_));
}

void Session::narrow_to_selected_container() {
  if (tab_ != Tab::containers) {
    message_ = "Enter on a row of the Containers tab (C) shows that container's processes";
    return;
  }
  if (selected_ >= table_.rows.size()) {
    message_ = model_.has_containers() ? "no container at the cursor"
                                       : "no container frames in this recording";
    return;
  }
  const Row& row = table_.rows[selected_];
  ContainerScope scope{.path = row.key, .id = row.container_id, .name = row.cells.back().text};
  const std::string name = scope.name;
  container_ = std::move(scope);
  show_tab(Tab::processes);
  message_ = table_.rows.empty()
                 ? "no process of " + name + " in the process frame at the cursor (x: all)"
                 : "processes of container " + name + " (x: all processes)";
}

void Session::move_selection(Action action) {
  switch (action) {
    case Action::left:
      scroll_x_ -= std::min(scroll_x_, kSidewaysStep);
      break;
    case Action::right:
      scroll_x_ = std::min(scroll_x_ + kSidewaysStep, max_scroll_x());
      break;
    case Action::up:
      select(selected_ == 0 ? 0 : selected_ - 1);
      break;
    case Action::down:
      select(selected_ + 1);
      break;
    case Action::page_up:
      select(selected_ > page_rows_ ? selected_ - page_rows_ : 0);
      break;
    case Action::page_down:
      select(selected_ + page_rows_);
      break;
    default:
      break;
  }
}

}  // namespace flightrec::replay
