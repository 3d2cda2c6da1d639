#pragma once
// printf into a std::string of whatever length the text needs, for the fixed-width columns and
// numbers the text outputs print (top, replay, incident listings). The attribute keeps -Wformat
// checking every call's arguments against its pattern.
#include <string>

namespace flightrec {

[[gnu::format(printf, 1, 2)]] std::string printf_string(const char* pattern, ...);

}  // namespace flightrec
