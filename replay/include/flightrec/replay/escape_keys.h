#pragma once
// Escape sequences the terminal description does not name. ncurses decodes the keys terminfo
// lists; others (Home, End, PgUp, F5... under TERM=vt100 inside tmux) arrive as ESC and the
// sequence's characters, and their '[' would read as "one sample back". The front end collects
// what follows an ESC and asks this decoder, so such a key either works or is dropped whole.
#include <optional>
#include <string_view>

namespace flightrec::replay {

// Whether `body` (what followed ESC so far) is a complete CSI ("[" parameters final byte) or SS3
// ("O" one byte) sequence. A body that is neither ("" or another key) is complete as well.
bool escape_sequence_complete(std::string_view body);

// The session key (keys:: or a character) of ESC + `body`: keys::kEscape for an empty body, the
// key for a sequence xterm, tmux or a VT terminal sends, nothing for any other sequence (the
// caller drops it).
std::optional<int> decode_escape_sequence(std::string_view body);

}  // namespace flightrec::replay
