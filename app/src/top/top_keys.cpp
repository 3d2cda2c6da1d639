// The keys of `flightrec top`, as top(1) and htop users press them: what each does to the view.
#include <algorithm>
#include <array>

#include "flightrec/app/top.h"

namespace flightrec::app {
namespace {

constexpr std::array kCpuColumns{TopColumn::pid,     TopColumn::user, TopColumn::cpu,
                                 TopColumn::mem,     TopColumn::rss,  TopColumn::virt,
                                 TopColumn::threads, TopColumn::time, TopColumn::command};
constexpr std::array kNetColumns{TopColumn::pid,        TopColumn::uid,      TopColumn::tx_packets,
                                 TopColumn::rx_packets, TopColumn::tx_bytes, TopColumn::rx_bytes,
                                 TopColumn::total};

// Sorts by `column` when the screen has it, in its natural direction, as top does on M or P.
bool select(TopView& view, TopColumn column, bool net) {
  const auto columns = sort_columns(net);
  if (std::find(columns.begin(), columns.end(), column) == columns.end()) return false;
  view.sort = column;
  view.reversed = false;
  return true;
}

// `<` and `>`: the neighbouring sortable column, stopping at either end as htop does.
bool step(TopView& view, int by, bool net) {
  const auto columns = sort_columns(net);
  const auto at = std::find(columns.begin(), columns.end(), view.sort);
  const auto index = at == columns.end() ? 0 : at - columns.begin();
  const auto next = std::clamp<std::ptrdiff_t>(index + by, 0, std::ssize(columns) - 1);
  if (columns[static_cast<size_t>(next)] == view.sort) return false;
  view.sort = columns[static_cast<size_t>(next)];
  return true;
}

}  // namespace

TopView initial_view(bool net) { return {.sort = net ? TopColumn::total : TopColumn::cpu}; }

std::span<const TopColumn> sort_columns(bool net) {
  if (net) return kNetColumns;
  return kCpuColumns;
}

std::string_view column_name(TopColumn column) {
  switch (column) {
    case TopColumn::pid:
      return "PID";
    case TopColumn::user:
      return "USER";
    case TopColumn::cpu:
      return "%CPU";
    case TopColumn::mem:
      return "%MEM";
    case TopColumn::rss:
      return "RSS";
    case TopColumn::virt:
      return "VIRT";
    case TopColumn::threads:
      return "THR";
    case TopColumn::time:
      return "TIME+";
    case TopColumn::command:
      return "COMMAND";
    case TopColumn::uid:
      return "UID";
    case TopColumn::tx_packets:
      return "XMIT_PK";
    case TopColumn::rx_packets:
      return "RECV_PK";
    case TopColumn::tx_bytes:
      return "XMIT_KB";
    case TopColumn::rx_bytes:
      return "RECV_KB";
    case TopColumn::total:
      return "XMIT_KB+RECV_KB";
  }
  return "?";
}

bool apply_key(TopView& view, char key, bool net) {
  if (view.help) {  // any key returns to the table, and does nothing else, as in top
    view.help = false;
    return true;
  }
  switch (key) {
    case 'q':
      view.quit = true;
      return false;
    case 'h':
    case '?':
      view.help = true;
      return true;
    case 'P':
      return select(view, TopColumn::cpu, net);
    case 'M':
      return select(view, TopColumn::mem, net);
    case 'T':
      return select(view, TopColumn::time, net);
    case 'N':
      return select(view, TopColumn::pid, net);
    case '<':
      return step(view, -1, net);
    case '>':
      return step(view, 1, net);
    case 'R':
      view.reversed = !view.reversed;
      return true;
    default:
      return false;
  }
}

std::string top_keys_text() {
  return "  q        quit (Ctrl-C too)\n"
         "  h or ?   help: these keys (any key returns)\n"
         "  P        sort by %CPU\n"
         "  M        sort by memory (%MEM, RSS)\n"
         "  T        sort by CPU time (TIME+)\n"
         "  N        sort by PID\n"
         "  < >      sort by the column left or right of the sorted one\n"
         "  R        reverse the order\n"
         "The sorted column is marked with * in the header. With --net, P, M and T do\n"
         "nothing; < and > step through PID, UID, the packet and KB columns and\n"
         "XMIT_KB+RECV_KB (the default). Keys are read when standard input and output\n"
         "are a terminal and --batch is not given.\n";
}

std::string top_help_screen(const TopView& view, bool net) {
  return std::string(net ? "flightrec top --net" : "flightrec top") + ": keys\n\n" +
         top_keys_text() + "\nSorted by " + std::string(column_name(view.sort)) +
         (view.reversed ? ", reversed" : "") + ". Press any key to return.\n";
}

}  // namespace flightrec::app
