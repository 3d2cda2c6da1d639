#include "flightrec/replay/escape_keys.h"

#include <catch2/catch.hpp>

#include "flightrec/replay/session.h"

using namespace flightrec::replay;

TEST_CASE("escapeSequencesEndAtTheirFinalByte", "[replay][keys]") {
  CHECK(escape_sequence_complete(""));
  CHECK_FALSE(escape_sequence_complete("["));
  CHECK_FALSE(escape_sequence_complete("[1"));
  CHECK_FALSE(escape_sequence_complete("[15"));
  CHECK(escape_sequence_complete("[15~"));
  CHECK(escape_sequence_complete("[A"));
  CHECK_FALSE(escape_sequence_complete("O"));
  CHECK(escape_sequence_complete("OH"));
  CHECK(escape_sequence_complete("x"));  // ESC then another key: not a sequence
}

TEST_CASE("knownSequencesAreKeysAndUnknownOnesAreDropped", "[replay][keys]") {
  // What tmux sends for Home, End, PgUp, PgDn, F5, F6 and F10 whatever TERM says.
  CHECK(decode_escape_sequence("[1~") == keys::kHome);
  CHECK(decode_escape_sequence("[4~") == keys::kEnd);
  CHECK(decode_escape_sequence("[5~") == keys::kPageUp);
  CHECK(decode_escape_sequence("[6~") == keys::kPageDown);
  CHECK(decode_escape_sequence("[15~") == keys::kF5);
  CHECK(decode_escape_sequence("[17~") == keys::kF6);
  CHECK(decode_escape_sequence("[21~") == keys::kF10);
  CHECK(decode_escape_sequence("OH") == keys::kHome);
  CHECK(decode_escape_sequence("[D") == keys::kLeft);
  CHECK(decode_escape_sequence("") == keys::kEscape);  // a lone ESC
  // Insert, F12, a mouse report, Alt-x: no key of the view, and never '[' (one sample back).
  CHECK_FALSE(decode_escape_sequence("[2~").has_value());
  CHECK_FALSE(decode_escape_sequence("[24~").has_value());
  CHECK_FALSE(decode_escape_sequence("[<0;10;5M").has_value());
  CHECK_FALSE(decode_escape_sequence("x").has_value());
}
