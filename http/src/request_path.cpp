#include "request_path.h"

#include <civetweb.h>

#include <vector>

namespace flightrec::http::detail {
namespace {

std::string without_dot_segments(std::string_view path) {
  if (!path.starts_with('/')) return std::string(path);
  std::vector<std::string_view> kept;
  std::string_view rest = path.substr(1);
  for (bool last = false; !last;) {
    const size_t slash = rest.find('/');
    last = slash == std::string_view::npos;
    const std::string_view segment = rest.substr(0, slash);
    if (!last) rest.remove_prefix(slash + 1);
    if (segment == "." || segment == "..") {
      if (segment == ".." && !kept.empty()) kept.pop_back();
      // A path that ends in a dot segment names a directory: "/a/b/.." is "/a/".
      if (last) kept.emplace_back();
      continue;
    }
    kept.push_back(segment);
  }
  std::string out;
  for (const std::string_view segment : kept) {
    out += '/';
    out += segment;
  }
  return out.empty() ? "/" : out;
}

}  // namespace

std::string decoded_path(std::string_view raw) {
  std::string decoded(raw.size() + 1, '\0');  // decoding never lengthens; one more for its NUL
  const int length = mg_url_decode(raw.data(), static_cast<int>(raw.size()), decoded.data(),
                                   static_cast<int>(decoded.size()), 0);
  decoded.resize(length < 0 ? 0 : static_cast<size_t>(length));
  return without_dot_segments(decoded);
}

}  // namespace flightrec::http::detail
