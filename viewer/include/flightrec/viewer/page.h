#pragma once
// The incident viewer page: one self-contained HTML document (uPlot, its CSS and the page's script
// are embedded at build time; the data is inline JSON) that plots a recording's key signals with
// the trigger marked and lists the top processes around it. Nothing is fetched at run time.
// See docs/VIEWER.md.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "flightrec/process/process_frame.h"
#include "flightrec/recording/metadata.h"
#include "flightrec/recording/recording_file.h"
#include "flightrec/store/block.h"
#include "flightrec/store/cursor.h"
#include "flightrec/viewer/container_sections.h"
#include "flightrec/viewer/key_signals.h"
#include "flightrec/viewer/oom_kill_mark.h"
#include "flightrec/viewer/rule_focus.h"
#include "flightrec/viewer/top_processes.h"

namespace flightrec::viewer {

struct ViewOptions {
  std::string title;  // e.g. "Incident 20261130T052811.123Z-cpu_busy"
  // Shown under the title in this order, e.g. {"rule", "cpu_busy"}, {"value", "97.0%"}.
  std::vector<std::pair<std::string, std::string>> details;
  // An alert's labels, name and value: a table of their own under the details.
  std::vector<std::pair<std::string, std::string>> labels;
  store::TimeRange range;             // frames outside it are left out
  std::optional<int64_t> trigger_ns;  // marked on every chart
  // An OOM kill: marked on every chart too, its top consumers listed; the top processes are
  // taken around it rather than around the trigger.
  std::optional<OomKillMark> oom_kill;
  size_t max_values = kDefaultMaxValues;
  // The chart of the rule's signal gets a line at its threshold; the top processes are sorted by
  // the rule's resource first.
  std::optional<Threshold> threshold;
  ProcessSort process_sort = ProcessSort::cpu;
  size_t top_processes = 15;  // per order: CPU, RSS and RSS growth (TopProcesses::rows)
  // A section each, after the processes (container_sections()); none: the page has no such part.
  std::vector<ContainerSection> containers;
};

// The page's data as JSON (layout in docs/VIEWER.md). Safe inside a <script> element whatever the
// strings hold: every '<', '>' and '&' is written as a \u escape, so no "</script>" can appear.
std::string view_json(const recording::Metadata& metadata, const SignalWindow& window,
                      const TopProcesses& top, const ViewOptions& options);

// The top processes are taken around an OOM kill, else the trigger, else the CPU peak; their RSS
// growth over the whole of `options.range`.
std::string render_view_page(const recording::Metadata& metadata,
                             std::span<const std::shared_ptr<const store::Block>> blocks,
                             std::span<const std::shared_ptr<const store::ProcessBlock>> processes,
                             const ViewOptions& options);

// The title and header of incident `id`'s page, from the description in its metadata: rule,
// condition, series, value (in the series' unit: "2.02 GiB", "97.0%"), reason (only those it has),
// when it fired (also marked on every chart), its window and the host; an alert's labels as a table
// of their own instead of a label set in the series row; for an OOM incident, the kill's mark
// (oom_kill_mark). The rule's focus (rule_focus.h) sets the threshold and the processes' order.
ViewOptions incident_view_options(std::string_view id, const recording::Metadata& metadata);

}  // namespace flightrec::viewer
