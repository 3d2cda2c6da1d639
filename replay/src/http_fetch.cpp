#include "flightrec/replay/http_fetch.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "flightrec/common/fd.h"

namespace flightrec::replay {
namespace {

struct Url {
  std::string host;
  std::string port = "80";
  std::string target = "/";  // path and query
};

bool parse_url(std::string_view url, Url& out, std::string& error) {
  constexpr std::string_view kScheme = "http://";
  if (!url.starts_with(kScheme)) {
    error = "only http:// URLs can be fetched (for https, download the file with curl first)";
    return false;
  }
  std::string_view rest = url.substr(kScheme.size());
  const size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) out.target = std::string(rest.substr(slash));
  if (authority.starts_with('[')) {  // [v6]:port
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      error = "unbalanced [ in the host";
      return false;
    }
    out.host = std::string(authority.substr(1, close - 1));
    authority.remove_prefix(close + 1);
    if (authority.starts_with(':')) out.port = std::string(authority.substr(1));
  } else {
    const size_t colon = authority.rfind(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) out.port = std::string(authority.substr(colon + 1));
  }
  if (out.host.empty() || out.port.empty()) {
    error = "no host or port in the URL";
    return false;
  }
  return true;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string seconds_text(std::chrono::milliseconds duration) {
  if (duration.count() % 1000 == 0) return std::to_string(duration.count() / 1000) + " s";
  char text[32];
  std::snprintf(text, sizeof text, "%g s", static_cast<double>(duration.count()) / 1000.0);
  return text;
}

// Waits until `fd` is ready for `events`; false when `timeout` passed first. The deadline is kept
// across interrupted polls, so a signal that is handled does not restart the wait.
bool wait_for(int fd, short events, std::chrono::milliseconds timeout) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + timeout;
  pollfd entry{fd, events, 0};
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    const long long wait_ms = std::clamp<long long>(left.count(), 0, INT_MAX);
    const int ready = ::poll(&entry, 1, static_cast<int>(wait_ms));
    if (ready >= 0 || errno != EINTR) return ready > 0;
  }
}

Fd connect_to(const Url& url, const FetchLimits& limits, std::string& error) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &found); rc != 0) {
    error = "cannot resolve " + url.host + ": " + gai_strerror(rc);
    return {};
  }
  error = "cannot connect";
  for (addrinfo* ai = found; ai != nullptr; ai = ai->ai_next) {
    Fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol));
    if (!fd) continue;
    if (::connect(fd.get(), ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
      error = std::string("cannot connect: ") + std::strerror(errno);
      continue;
    }
    if (!wait_for(fd.get(), POLLOUT, limits.connect_timeout)) {
      error = "timed out after " + seconds_text(limits.connect_timeout) + " connecting to " +
              url.host + " port " + url.port;
      continue;
    }
    int so_error = 0;
    socklen_t length = sizeof so_error;
    ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &so_error, &length);
    if (so_error != 0) {
      error = std::string("cannot connect: ") + std::strerror(so_error);
      continue;
    }
    ::freeaddrinfo(found);
    error.clear();
    return fd;
  }
  ::freeaddrinfo(found);
  return {};
}

bool send_all(int fd, std::string_view bytes, const FetchLimits& limits, std::string& error) {
  while (!bytes.empty()) {
    if (!wait_for(fd, POLLOUT, limits.read_timeout)) {
      error = "timed out after " + seconds_text(limits.read_timeout) + " sending the request";
      return false;
    }
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (sent < 0) {
      error = std::string("cannot send the request: ") + std::strerror(errno);
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(sent));
  }
  return true;
}

// Reads the answer a buffer at a time, each wait bounded by the read timeout.
class AnswerReader {
 public:
  AnswerReader(int fd, std::chrono::milliseconds timeout) : fd_(fd), timeout_(timeout) {}

  // The next bytes (valid until the next call); empty at the end of the answer. False (with
  // `error`) when no byte came within the timeout or the read failed.
  bool next(std::string_view& bytes, std::string& error) {
    while (true) {
      if (!wait_for(fd_, POLLIN, timeout_)) {
        error = "timed out after " + seconds_text(timeout_) + " waiting for the answer";
        return false;
      }
      const ssize_t got = ::recv(fd_, buffer_, sizeof buffer_, 0);
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got < 0) {
        error = std::string("cannot read the answer: ") + std::strerror(errno);
        return false;
      }
      bytes = std::string_view(buffer_, static_cast<size_t>(got));
      return true;
    }
  }

 private:
  int fd_;
  std::chrono::milliseconds timeout_;
  char buffer_[65536];
};

std::string larger_than(std::string_view what, size_t limit) {
  return std::string(what) + " larger than " + std::to_string(limit) + " bytes";
}

// Appends `bytes` to `out`, whose size stays within `cap`, so that its capacity never exceeds
// `cap` and a reallocation's copy never holds more than `cap` either: capacity doubles up to cap/2
// (the old half and its copy make cap) and then goes straight to `cap`.
void append_within(std::string& out, std::string_view bytes, size_t cap) {
  const size_t needed = out.size() + bytes.size();
  if (needed > out.capacity()) {
    const size_t half = cap / 2;
    // A fresh string, as reserve() on a full one would round up to double its capacity.
    std::string grown;
    grown.reserve(needed > half ? cap : std::min(std::max(needed, out.capacity() * 2), half));
    grown.append(out);
    out = std::move(grown);
  }
  out.append(bytes);
}

struct Head {
  int status = 0;
  std::string status_text;  // "404 Not Found"
  bool chunked = false;
  std::optional<uint64_t> content_length;  // the largest uint64_t when it is even larger
  std::string content_length_text;
  std::string encoding;  // Content-Encoding, lower case
};

bool parse_head(std::string_view head, Head& out, std::string& error) {
  const std::string_view status_line = head.substr(0, head.find("\r\n"));
  if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12 ||
      std::from_chars(status_line.data() + 9, status_line.data() + 12, out.status).ec !=
          std::errc{}) {
    error = "not an HTTP answer: \"" + std::string(status_line.substr(0, 80)) + "\"";
    return false;
  }
  out.status_text = std::string(status_line.substr(9));
  for (size_t at = head.find("\r\n"); at != std::string_view::npos;) {
    const size_t next = head.find("\r\n", at + 2);
    const std::string header = lower(head.substr(at + 2, next - at - 2));
    at = next;
    const size_t colon = header.find(':');
    if (colon == std::string::npos) continue;
    const std::string_view name = std::string_view(header).substr(0, colon);
    std::string_view value = std::string_view(header).substr(colon + 1);
    value.remove_prefix(std::min(value.find_first_not_of(" \t"), value.size()));
    value = value.substr(0, value.find_last_not_of(" \t") + 1);
    if (name == "transfer-encoding" && value.find("chunked") != std::string_view::npos) {
      out.chunked = true;
    } else if (name == "content-encoding") {
      out.encoding = std::string(value);
    } else if (name == "content-length") {
      uint64_t length = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), length);
      if (ec == std::errc::result_out_of_range) length = UINT64_MAX;
      if ((ec != std::errc{} && ec != std::errc::result_out_of_range) ||
          end != value.data() + value.size()) {
        error = "malformed Content-Length \"" + std::string(value.substr(0, 80)) + "\"";
        return false;
      }
      out.content_length = length;
      out.content_length_text = std::string(value.substr(0, 40));
    }
  }
  return true;
}

// Reads until the blank line that ends the head; what came after it is left in `rest`.
bool read_head(AnswerReader& reader, size_t max_bytes, std::string& head, std::string& rest,
               std::string& error) {
  constexpr std::string_view kEnd = "\r\n\r\n";
  while (true) {
    std::string_view bytes;
    if (!reader.next(bytes, error)) return false;
    if (bytes.empty()) {
      error = "the answer has no complete HTTP header";
      return false;
    }
    const size_t search_from = head.size() < kEnd.size() ? 0 : head.size() - (kEnd.size() - 1);
    head.append(bytes);
    const size_t end = head.find(kEnd, search_from);
    if (end == std::string::npos ? head.size() >= max_bytes : end + kEnd.size() > max_bytes) {
      error = larger_than("response header", max_bytes);
      return false;
    }
    if (end != std::string::npos) {
      rest = head.substr(end + kEnd.size());
      head.resize(end);
      return true;
    }
  }
}

// An error answer is read only as far as its message (the first line of the body) needs.
constexpr size_t kErrorBodyBytes = 4096;

// Reads the body after `rest` (the bytes that came with the head) into `body`.
bool read_body(AnswerReader& reader, const Head& head, std::string_view rest, size_t max_bytes,
               std::string& body, std::string& error) {
  if (!head.chunked && head.content_length) {
    if (*head.content_length > max_bytes) {
      error = larger_than("response body", max_bytes) +
              " (Content-Length: " + head.content_length_text + ")";
      return false;
    }
    if (head.status == 200) body.reserve(static_cast<size_t>(*head.content_length));
  }
  ChunkedDecoder chunks(max_bytes);
  std::string_view bytes = rest;
  while (true) {
    if (head.chunked) {
      if (!chunks.feed(bytes, body, error)) return false;
      if (chunks.done()) return true;
    } else {
      if (head.content_length) bytes = bytes.substr(0, *head.content_length - body.size());
      if (body.size() + bytes.size() > max_bytes) {
        error = larger_than("response body", max_bytes);
        return false;
      }
      append_within(body, bytes, max_bytes);
      if (head.content_length && body.size() == *head.content_length) return true;
    }
    if (head.status != 200 && body.size() >= kErrorBodyBytes) return true;
    if (!reader.next(bytes, error)) return false;
    if (bytes.empty()) break;
  }
  if (head.chunked) {
    error = chunks.cut_short_error();
  } else if (head.content_length) {
    error = "response body cut short: " + std::to_string(body.size()) + " of " +
            std::to_string(*head.content_length) + " bytes";
  }
  return error.empty();
}

}  // namespace

bool ChunkedDecoder::feed(std::string_view bytes, std::string& out, std::string& error) {
  while (!bytes.empty() && part_ != Part::kDone) {
    switch (part_) {
      case Part::kSizeLine: {
        const size_t newline = bytes.find('\n');
        size_line_.append(bytes.substr(0, newline));
        // Chunk extensions make the line longer than a size, but not without bound.
        constexpr size_t kMaxSizeLine = 4096;
        if (size_line_.size() > kMaxSizeLine) {
          error = "chunk size line longer than " + std::to_string(kMaxSizeLine) + " bytes";
          return false;
        }
        if (newline == std::string_view::npos) return true;
        bytes.remove_prefix(newline + 1);
        if (!end_size_line(out, error)) return false;
        break;
      }
      case Part::kData: {
        const std::string_view data =
            bytes.substr(0, static_cast<size_t>(std::min<uint64_t>(remaining_, bytes.size())));
        append_within(out, data, max_bytes_);
        remaining_ -= data.size();
        bytes.remove_prefix(data.size());
        if (remaining_ == 0) part_ = Part::kDataEnd;
        break;
      }
      case Part::kDataEnd:
        if (bytes.front() != "\r\n"[data_end_seen_]) {
          error = "chunk data not followed by CRLF";
          return false;
        }
        bytes.remove_prefix(1);
        if (++data_end_seen_ == 2) {
          data_end_seen_ = 0;
          part_ = Part::kSizeLine;
        }
        break;
      case Part::kDone:
        break;
    }
  }
  return true;
}

bool ChunkedDecoder::end_size_line(std::string& out, std::string& error) {
  if (!size_line_.ends_with('\r')) {
    error = "chunk size line not ended by CRLF";
    return false;
  }
  size_line_.pop_back();
  const std::string_view size_text =
      std::string_view(size_line_).substr(0, size_line_.find(';'));  // chunk extensions
  uint64_t size = 0;
  const auto [end, ec] =
      std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
  if (ec != std::errc{} || end != size_text.data() + size_text.size()) {
    error = "malformed chunk size \"" + std::string(size_text.substr(0, 80)) + "\"";
    return false;
  }
  if (size > max_bytes_ - out.size()) {
    error = larger_than("response body", max_bytes_);
    return false;
  }
  size_line_.clear();
  remaining_ = size;
  part_ = size == 0 ? Part::kDone : Part::kData;
  return true;
}

std::string ChunkedDecoder::cut_short_error() const {
  switch (part_) {
    case Part::kSizeLine:
      return "chunked body cut short (no chunk size line)";
    case Part::kData:
    case Part::kDataEnd:
      return "chunked body cut short inside a chunk";
    case Part::kDone:
      break;
  }
  return {};
}

bool decode_chunked(std::string_view body, std::string& out, std::string& error) {
  out.clear();
  ChunkedDecoder decoder(body.size());
  if (!decoder.feed(body, out, error)) return false;
  error = decoder.cut_short_error();
  return error.empty();
}

std::string recording_url(std::string_view url) {
  const size_t query = url.find('?');
  const std::string_view path = url.substr(0, query);
  if (!path.ends_with("/dump")) return std::string(url);
  if (query == std::string_view::npos) return std::string(url) + "?format=raw";
  const std::string_view params = url.substr(query);
  if (params.find("?format=") != std::string_view::npos ||
      params.find("&format=") != std::string_view::npos) {
    return std::string(url);
  }
  return std::string(url) + "&format=raw";
}

FetchResult http_get(std::string_view url, const FetchLimits& limits) {
  FetchResult result;
  const auto fail = [&](const std::string& what) {
    result.body.clear();
    result.body.shrink_to_fit();
    result.error = std::string(url) + ": " + what;
    return result;
  };
  Url parsed;
  std::string error;
  if (!parse_url(url, parsed, error)) return fail(error);
  const Fd fd = connect_to(parsed, limits, error);
  if (!fd) return fail(error);
  const bool v6 = parsed.host.find(':') != std::string::npos;
  const std::string request = "GET " + parsed.target +
                              " HTTP/1.1\r\nHost: " + (v6 ? "[" + parsed.host + "]" : parsed.host) +
                              ":" + parsed.port +
                              "\r\nAccept-Encoding: identity\r\nConnection: close\r\n"
                              "User-Agent: flightrec-replay\r\n\r\n";
  if (!send_all(fd.get(), request, limits, error)) return fail(error);

  AnswerReader reader(fd.get(), limits.read_timeout);
  std::string head_text;
  std::string rest;
  Head head;
  if (!read_head(reader, limits.max_header_bytes, head_text, rest, error) ||
      !parse_head(head_text, head, error) ||
      !read_body(reader, head, rest, limits.max_body_bytes, result.body, error)) {
    return fail(error);
  }
  if (head.status != 200) {
    std::string message = result.body.substr(0, result.body.find('\n'));
    if (message.size() > 200) message.resize(200);
    return fail(head.status_text + (message.empty() ? "" : ": " + message));
  }
  if (!head.encoding.empty() && head.encoding != "identity") {
    return fail("the server sent a " + head.encoding + "-encoded body although none was asked for");
  }
  return result;
}

}  // namespace flightrec::replay
