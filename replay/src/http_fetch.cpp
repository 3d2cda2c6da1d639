#include "flightrec/replay/http_fetch.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>

#include "scheme_probe.h"

namespace flightrec::replay {
namespace {

using Clock = std::chrono::steady_clock;

// An error answer is kept only as far as its message (the first line of the body) needs.
constexpr size_t kErrorMessageBytes = 4096;
// How often the transfer loop looks at the read timeout while nothing arrives.
constexpr std::chrono::milliseconds kPollStep{50};

std::string seconds_text(std::chrono::milliseconds duration) {
  if (duration.count() % 1000 == 0) return std::to_string(duration.count() / 1000) + " s";
  std::string text = std::to_string(static_cast<double>(duration.count()) / 1000.0);
  text.erase(text.find_last_not_of('0') + 1);
  return text + " s";
}

std::string larger_than(std::string_view what, size_t limit) {
  return std::string(what) + " larger than " + std::to_string(limit) + " bytes";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

// What the header and body callbacks learn of the answer, and why they stopped it.
struct Transfer {
  explicit Transfer(const FetchLimits& bounds) : limits(bounds) {}

  const FetchLimits& limits;
  std::string body;
  std::string status_text;  // "404 Not Found" (the last answer's, after redirects)
  int status = 0;
  size_t header_bytes = 0;
  std::optional<size_t> content_length;
  std::string encoding;
  std::string stopped;  // why a callback ended the transfer; empty when none did
  Clock::time_point last_byte = Clock::now();

  void start_answer(std::string_view status_line) {
    header_bytes = 0;
    content_length.reset();
    encoding.clear();
    const size_t space = status_line.find(' ');
    status_text = std::string(
        trimmed(space == std::string_view::npos ? std::string_view{} : status_line.substr(space)));
    status = std::atoi(status_text.c_str());
  }

  // False (with `stopped`) for a Content-Length the body limit refuses before reading.
  bool take_header(std::string_view name, std::string_view value) {
    if (name == "content-encoding") encoding = lower(value);
    if (name != "content-length" || status != 200) return true;
    const bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (!digits) {
      stopped = "malformed Content-Length \"" + std::string(value.substr(0, 80)) + "\"";
      return false;
    }
    const std::string_view significant =
        value.substr(std::min(value.find_first_not_of('0'), value.size()));
    const std::string limit_text = std::to_string(limits.max_body_bytes);
    const bool too_long = significant.size() > limit_text.size() ||
                          (significant.size() == limit_text.size() && significant > limit_text);
    if (too_long) {
      stopped = larger_than("response body", limits.max_body_bytes) +
                " (Content-Length: " + std::string(value) + ")";
      return false;
    }
    content_length = std::stoull(std::string(value));
    return true;
  }
};

size_t on_header(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  transfer.last_byte = Clock::now();
  const std::string_view line(data, bytes);
  if (line.starts_with("HTTP/")) transfer.start_answer(line);
  transfer.header_bytes += bytes;
  if (transfer.header_bytes > transfer.limits.max_header_bytes) {
    transfer.stopped = larger_than("response header", transfer.limits.max_header_bytes);
    return 0;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return bytes;
  return transfer.take_header(lower(trimmed(line.substr(0, colon))),
                              trimmed(line.substr(colon + 1)))
             ? bytes
             : 0;
}

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto& transfer = *static_cast<Transfer*>(user);
  const size_t bytes = size * count;
  transfer.last_byte = Clock::now();
  std::string& body = transfer.body;
  if (transfer.status != 200) {
    body.append(data,
                std::min(bytes, kErrorMessageBytes - std::min(body.size(), kErrorMessageBytes)));
    // The message is complete at its first line (or the cap): the rest is not needed.
    return body.find('\n') == std::string::npos && body.size() < kErrorMessageBytes ? bytes : 0;
  }
  const size_t limit = transfer.limits.max_body_bytes;
  if (bytes > limit - body.size()) {
    transfer.stopped = larger_than("response body", limit);
    return 0;
  }
  // Grow by doubling, but never past the limit: a body of exactly the limit fits in it. The
  // capacity stays at most half the limit until it is the limit, because std::string grows a
  // reserve() below twice the old capacity to twice the old capacity.
  if (body.size() + bytes > body.capacity()) {
    const size_t wanted = std::max(body.size() + bytes, body.capacity() * 2);
    body.reserve(wanted > limit / 2 ? limit : wanted);
  }
  body.append(data, bytes);
  return bytes;
}

struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const { curl_multi_cleanup(multi); }
};
using Easy = std::unique_ptr<CURL, EasyDeleter>;
using Multi = std::unique_ptr<CURLM, MultiDeleter>;

void global_init() {
  static const CURLcode initialised = curl_global_init(CURL_GLOBAL_DEFAULT);
  static_cast<void>(initialised);
}

void set_credentials(CURL* easy, const ClientCredentials& credentials) {
  if (!credentials.ca_file.empty())
    curl_easy_setopt(easy, CURLOPT_CAINFO, credentials.ca_file.c_str());
  if (!credentials.cert_file.empty()) {
    curl_easy_setopt(easy, CURLOPT_SSLCERT, credentials.cert_file.c_str());
  }
  if (!credentials.key_file.empty())
    curl_easy_setopt(easy, CURLOPT_SSLKEY, credentials.key_file.c_str());
  if (!credentials.user.empty()) {
    curl_easy_setopt(easy, CURLOPT_HTTPAUTH, static_cast<long>(CURLAUTH_BASIC));
    curl_easy_setopt(easy, CURLOPT_USERNAME, credentials.user.c_str());
    curl_easy_setopt(easy, CURLOPT_PASSWORD, credentials.password.c_str());
  }
}

Easy make_easy(const std::string& url, const FetchLimits& limits,
               const ClientCredentials& credentials, Transfer& transfer, char* error_text) {
  Easy easy(curl_easy_init());
  if (!easy) return easy;
  CURL* e = easy.get();
  curl_easy_setopt(e, CURLOPT_URL, url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(limits.connect_timeout.count()));
  curl_easy_setopt(e, CURLOPT_USERAGENT, "flightrec-replay");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, error_text);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &transfer);
  set_credentials(e, credentials);
  return easy;
}

// Whether the connection (and its TLS handshake) is up: the read timeout runs from then on.
bool connected(CURL* easy) {
  curl_off_t connect = 0;
  curl_off_t tls = 0;
  char* scheme = nullptr;
  curl_easy_getinfo(easy, CURLINFO_CONNECT_TIME_T, &connect);
  curl_easy_getinfo(easy, CURLINFO_APPCONNECT_TIME_T, &tls);
  curl_easy_getinfo(easy, CURLINFO_SCHEME, &scheme);
  const bool https = scheme != nullptr && lower(scheme) == "https";
  return connect > 0 && (!https || tls > 0);
}

// Runs the transfer to its end; returns curl's result, or nullopt when nothing arrived for
// limits.read_timeout once connected.
std::optional<CURLcode> run(CURLM* multi, CURL* easy, Transfer& transfer) {
  bool was_connected = false;
  for (;;) {
    int running = 0;
    curl_multi_perform(multi, &running);
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(multi, &queued)) {
      if (message->msg == CURLMSG_DONE) return message->data.result;
    }
    if (!was_connected && connected(easy)) {
      was_connected = true;
      transfer.last_byte = std::max(transfer.last_byte, Clock::now());
    }
    if (was_connected && Clock::now() - transfer.last_byte >= transfer.limits.read_timeout) {
      return std::nullopt;
    }
    curl_multi_poll(multi, nullptr, 0, static_cast<int>(kPollStep.count()), nullptr);
  }
}

std::string host_and_port(std::string_view url) {
  CURLU* parts = curl_url();
  std::string text = "the server";
  if (curl_url_set(parts, CURLUPART_URL, std::string(url).c_str(), 0) == CURLUE_OK) {
    char* host = nullptr;
    char* port = nullptr;
    if (curl_url_get(parts, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(parts, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
      text = std::string(host) + " port " + port;
    }
    curl_free(host);
    curl_free(port);
  }
  curl_url_cleanup(parts);
  return text;
}

constexpr std::string_view kCredentialsHint =
    " (replay's --user and --password-file, or FLIGHTREC_USER and FLIGHTREC_PASSWORD)";

// What failed, in words, for a transfer curl ended with `code`.
std::string failure_text(CURLcode code, const Transfer& transfer, std::string_view url,
                         const FetchLimits& limits, const char* error_text) {
  if (!transfer.stopped.empty()) return transfer.stopped;
  std::string detail = error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
  switch (code) {
    case CURLE_OPERATION_TIMEDOUT:
      return "timed out after " + seconds_text(limits.connect_timeout) + " connecting to " +
             host_and_port(url);
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
      return "cannot resolve: " + detail;
    case CURLE_COULDNT_CONNECT:
      return "cannot connect: " + detail;
    case CURLE_UNSUPPORTED_PROTOCOL:
      return "only http:// and https:// URLs can be fetched";
    case CURLE_URL_MALFORMAT:
      return "malformed URL: " + detail;
    case CURLE_PEER_FAILED_VERIFICATION:
      return "the server's certificate is not trusted (name the CA that signed it with "
             "--ca-file or FLIGHTREC_CA_FILE): " +
             detail;
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CACERT_BADFILE:
      return "cannot use the TLS files given: " + detail;
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_RECV_ERROR:
      return "TLS or connection failure (a server that requires a client certificate wants "
             "--cert-file): " +
             detail;
    case CURLE_PARTIAL_FILE:
      return "response body cut short: " + std::to_string(transfer.body.size()) + " of " +
             std::to_string(transfer.content_length.value_or(0)) + " bytes";
    case CURLE_TOO_MANY_REDIRECTS:
      return "too many redirects: " + detail;
    default:
      return detail;
  }
}

// Whether the server ended the connection without an HTTP answer, as one does to a client that
// speaks the other scheme (plain HTTP to a TLS port, or TLS to a plain one). Some TLS servers
// answer plain HTTP with a TLS alert, which libcurl reads as an HTTP/0.9 answer it refuses.
bool cut_off_unanswered(CURLcode code) {
  return code == CURLE_RECV_ERROR || code == CURLE_SSL_CONNECT_ERROR || code == CURLE_GOT_NOTHING ||
         code == CURLE_WEIRD_SERVER_REPLY || code == CURLE_UNSUPPORTED_PROTOCOL;
}

// The message of a non-200 answer: its status and the first line of its body, the status once
// when the body starts with it (flightrec's own 401 body is "401 Unauthorized").
std::string answer_text(const Transfer& transfer) {
  std::string message = transfer.body.substr(0, transfer.body.find('\n'));
  if (message.size() > 200) message.resize(200);
  std::string text = message.starts_with(transfer.status_text) ? message
                     : message.empty()                         ? transfer.status_text
                                       : transfer.status_text + ": " + message;
  if (transfer.status == 401) text += std::string(kCredentialsHint);
  return text;
}

}  // namespace

std::string url_for_display(std::string_view url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return std::string(url);
  const size_t authority = scheme_end + 3;
  const size_t authority_end = std::min(url.find_first_of("/?#", authority), url.size());
  const size_t at = url.substr(0, authority_end).rfind('@');
  if (at == std::string_view::npos || at < authority) return std::string(url);
  const size_t colon = url.substr(0, at).find(':', authority);
  if (colon == std::string_view::npos) return std::string(url);
  return std::string(url.substr(0, colon + 1)) + "***" + std::string(url.substr(at));
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

Result<std::string> http_get(std::string_view url, const FetchLimits& limits,
                             const ClientCredentials& credentials) {
  const auto fail = [&](const std::string& what) {
    return Error{url_for_display(url) + ": " + what};
  };
  if (!url.starts_with("http://") && !url.starts_with("https://")) {
    return fail("only http:// and https:// URLs can be fetched");
  }
  global_init();
  Transfer transfer(limits);
  char error_text[CURL_ERROR_SIZE] = {};
  const std::string url_text(url);
  const Easy easy = make_easy(url_text, limits, credentials, transfer, error_text);
  const Multi multi(curl_multi_init());
  if (!easy || !multi) return fail("cannot start libcurl");
  curl_multi_add_handle(multi.get(), easy.get());
  const std::optional<CURLcode> code = run(multi.get(), easy.get(), transfer);
  curl_multi_remove_handle(multi.get(), easy.get());
  if (!code) {
    return fail("timed out after " + seconds_text(limits.read_timeout) + " waiting for the answer");
  }
  const bool message_cut =
      *code == CURLE_WRITE_ERROR && transfer.stopped.empty() && transfer.status != 200;
  if (*code != CURLE_OK && !message_cut) {
    if (transfer.stopped.empty() && cut_off_unanswered(*code)) {
      char* effective = nullptr;
      curl_easy_getinfo(easy.get(), CURLINFO_EFFECTIVE_URL, &effective);
      if (effective != nullptr) {
        if (auto hint = detail::other_scheme_hint(effective, limits.connect_timeout)) {
          return fail(*hint);
        }
      }
    }
    return fail(failure_text(*code, transfer, url, limits, error_text));
  }
  if (transfer.status != 200) return fail(answer_text(transfer));
  if (!transfer.encoding.empty() && transfer.encoding != "identity") {
    return fail("the server sent a " + transfer.encoding +
                "-encoded body although none was asked for");
  }
  return std::move(transfer.body);
}

}  // namespace flightrec::replay
