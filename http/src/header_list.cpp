#include "flightrec/http/header_list.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <system_error>

namespace flightrec::http {
namespace {

// Splits at `separator` except inside double quotes, so `v="a,b"` stays one piece.
std::vector<std::string_view> split_unquoted(std::string_view s, char separator) {
  std::vector<std::string_view> pieces;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"') {
      quoted = !quoted;
    } else if (s[i] == '\\' && quoted) {
      ++i;  // quoted-pair: the next character is literal
    } else if (s[i] == separator && !quoted) {
      pieces.push_back(trim_whitespace(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  pieces.push_back(trim_whitespace(s.substr(std::min(start, s.size()))));
  return pieces;
}

std::string_view unquote(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    return value.substr(1, value.size() - 2);
  }
  return value;
}

// RFC 9110 qvalue: a number in [0, 1]. Anything else makes the element unreadable.
bool parse_quality(std::string_view text, double& quality) {
  double parsed = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (error != std::errc() || end != text.data() + text.size()) return false;
  if (!(parsed >= 0.0 && parsed <= 1.0)) return false;
  quality = parsed;
  return true;
}

}  // namespace

std::string_view trim_whitespace(std::string_view s) {
  constexpr std::string_view kWhitespace = " \t";
  const auto first = s.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kWhitespace);
  return s.substr(first, last - first + 1);
}

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    const auto lower = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c;
    };
    return lower(x) == lower(y);
  });
}

std::vector<HeaderElement> parse_header_list(std::string_view header) {
  std::vector<HeaderElement> elements;
  std::size_t position = 0;
  for (const auto text : split_unquoted(header, ',')) {
    const auto parts = split_unquoted(text, ';');
    HeaderElement element{.token = parts.front(), .position = position++};
    bool readable = !element.token.empty();
    for (std::size_t i = 1; i < parts.size() && readable; ++i) {
      if (parts[i].empty()) continue;  // "a;;b" and a trailing ";" carry nothing
      const auto equals = parts[i].find('=');
      if (equals == std::string_view::npos) {
        readable = false;
        break;
      }
      const auto name = trim_whitespace(parts[i].substr(0, equals));
      const auto value = unquote(trim_whitespace(parts[i].substr(equals + 1)));
      if (iequals(name, "q")) {
        readable = parse_quality(value, element.quality);
      } else {
        element.parameters.push_back({name, value});
      }
    }
    if (readable) elements.push_back(element);
  }
  return elements;
}

const HeaderParameter* find_parameter(const HeaderElement& element, std::string_view name) {
  const auto it = std::find_if(element.parameters.begin(), element.parameters.end(),
                               [&](const HeaderParameter& p) { return iequals(p.name, name); });
  return it == element.parameters.end() ? nullptr : &*it;
}

bool accepts_gzip(std::string_view accept_encoding_header) {
  std::optional<double> gzip_quality;
  std::optional<double> identity_quality;
  std::optional<double> any_quality;
  for (const auto& coding : parse_header_list(accept_encoding_header)) {
    if (iequals(coding.token, "gzip") || iequals(coding.token, "x-gzip")) {
      gzip_quality = coding.quality;
    } else if (iequals(coding.token, "identity")) {
      identity_quality = coding.quality;
    } else if (coding.token == "*") {
      any_quality = coding.quality;
    }
  }
  const double gzip = gzip_quality.value_or(any_quality.value_or(0.0));
  if (gzip <= 0.0) return false;
  // Identity is always acceptable (RFC 9110 12.5.3), so it only wins when the client ranks it
  // strictly above gzip; on a tie the smaller body wins.
  return !identity_quality || *identity_quality <= gzip;
}

}  // namespace flightrec::http
