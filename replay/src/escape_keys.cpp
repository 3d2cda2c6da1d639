#include "flightrec/replay/escape_keys.h"

#include <array>
#include <utility>

#include "flightrec/replay/session.h"

namespace flightrec::replay {
namespace {

// ECMA-48: a CSI sequence ends with a byte in 0x40..0x7e after parameters and intermediates.
bool csi_final(char c) { return c >= 0x40 && c <= 0x7e; }

// xterm's, tmux's and the VT220's sequences for the keys the session knows (ncurses decodes
// them itself when terminfo names them; this covers the rest).
constexpr std::array<std::pair<std::string_view, int>, 30> kSequences{{
    {"[A", keys::kUp},      {"OA", keys::kUp},         {"[B", keys::kDown},    {"OB", keys::kDown},
    {"[C", keys::kRight},   {"OC", keys::kRight},      {"[D", keys::kLeft},    {"OD", keys::kLeft},
    {"[H", keys::kHome},    {"OH", keys::kHome},       {"[1~", keys::kHome},   {"[7~", keys::kHome},
    {"[F", keys::kEnd},     {"OF", keys::kEnd},        {"[4~", keys::kEnd},    {"[8~", keys::kEnd},
    {"[5~", keys::kPageUp}, {"[6~", keys::kPageDown},  {"[Z", keys::kBackTab}, {"OP", keys::kF1},
    {"[11~", keys::kF1},    {"OR", keys::kF3},         {"[13~", keys::kF3},    {"OS", keys::kF4},
    {"[14~", keys::kF4},    {"[15~", keys::kF5},       {"[17~", keys::kF6},    {"[21~", keys::kF10},
    {"OM", keys::kEnter},   {"[1;2Z", keys::kBackTab},
}};

}  // namespace

bool escape_sequence_complete(std::string_view body) {
  if (body.empty()) return true;
  if (body.front() == 'O') return body.size() >= 2;
  if (body.front() != '[') return true;
  return body.size() >= 2 && csi_final(body.back());
}

std::optional<int> decode_escape_sequence(std::string_view body) {
  if (body.empty()) return keys::kEscape;
  for (const auto& [sequence, key] : kSequences) {
    if (sequence == body) return key;
  }
  return std::nullopt;
}

}  // namespace flightrec::replay
