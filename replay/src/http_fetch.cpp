#include "flightrec/replay/http_fetch.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

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

bool wait_for(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd entry{fd, events, 0};
  int ready = 0;
  do {
    ready = ::poll(&entry, 1, static_cast<int>(timeout.count()));
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
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
    if (!wait_for(fd.get(), POLLOUT, limits.timeout)) {
      error = "timed out connecting";
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
    if (!wait_for(fd, POLLOUT, limits.timeout)) {
      error = "timed out sending the request";
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

bool receive_all(int fd, std::string& out, const FetchLimits& limits, std::string& error) {
  char buffer[65536];
  while (true) {
    if (!wait_for(fd, POLLIN, limits.timeout)) {
      error = "timed out waiting for the answer";
      return false;
    }
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got < 0) {
      error = std::string("cannot read the answer: ") + std::strerror(errno);
      return false;
    }
    if (got == 0) return true;
    if (out.size() + static_cast<size_t>(got) > limits.max_bytes) {
      error = "the answer is larger than " + std::to_string(limits.max_bytes) + " bytes";
      return false;
    }
    out.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

bool decode_chunked(std::string_view body, std::string& out, std::string& error) {
  out.clear();
  while (true) {
    const size_t line_end = body.find("\r\n");
    if (line_end == std::string_view::npos) {
      error = "chunked body cut short (no chunk size line)";
      return false;
    }
    std::string_view size_text = body.substr(0, line_end);
    size_text = size_text.substr(0, size_text.find(';'));  // chunk extensions
    uint64_t size = 0;
    const auto [end, ec] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size, 16);
    if (ec != std::errc{} || end != size_text.data() + size_text.size()) {
      error = "malformed chunk size \"" + std::string(size_text) + "\"";
      return false;
    }
    body.remove_prefix(line_end + 2);
    if (size == 0) return true;  // trailers, if any, are ignored
    if (body.size() < size + 2) {
      error = "chunked body cut short inside a chunk";
      return false;
    }
    out.append(body.substr(0, size));
    body.remove_prefix(size + 2);
  }
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
  std::string answer;
  if (!send_all(fd.get(), request, limits, error)) return fail(error);
  if (!receive_all(fd.get(), answer, limits, error)) return fail(error);

  const size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos) return fail("the answer has no complete HTTP header");
  const std::string_view head(answer.data(), head_end);
  const std::string_view status_line = head.substr(0, head.find("\r\n"));
  int status = 0;
  if (!status_line.starts_with("HTTP/1.") || status_line.size() < 12 ||
      std::from_chars(status_line.data() + 9, status_line.data() + 12, status).ec != std::errc{}) {
    return fail("not an HTTP answer: \"" + std::string(status_line.substr(0, 80)) + "\"");
  }
  bool chunked = false;
  std::string encoding;
  for (size_t at = head.find("\r\n"); at != std::string_view::npos;) {
    const size_t next = head.find("\r\n", at + 2);
    const std::string header = lower(head.substr(at + 2, next - at - 2));
    if (header.starts_with("transfer-encoding:") && header.find("chunked") != std::string::npos) {
      chunked = true;
    }
    if (header.starts_with("content-encoding:")) encoding = header.substr(17);
    at = next;
  }
  std::string_view body(answer);
  body.remove_prefix(head_end + 4);
  if (chunked) {
    if (!decode_chunked(body, result.body, error)) return fail(error);
  } else {
    result.body = std::string(body);
  }
  if (status != 200) {
    std::string message = result.body.substr(0, result.body.find('\n'));
    if (message.size() > 200) message.resize(200);
    return fail(std::string(status_line.substr(9)) + (message.empty() ? "" : ": " + message));
  }
  encoding.erase(0, encoding.find_first_not_of(' '));
  if (!encoding.empty() && encoding != "identity") {
    return fail("the server sent a " + encoding + "-encoded body although none was asked for");
  }
  return result;
}

}  // namespace flightrec::replay
