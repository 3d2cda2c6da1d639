#pragma once
// Fetches a recording over HTTP or HTTPS with libcurl (a GET, no compression asked), so
// `flightrec replay https://host:9717/dump` works against a daemon behind --web.config.file: TLS
// with a private CA, a client certificate, basic auth, redirects and the usual proxy variables
// (http_proxy, https_proxy, no_proxy) come with libcurl. Every wait and every buffer is bounded
// (FetchLimits): a server that never answers, or answers without end, gives an error naming the
// URL instead of a hang or exhausted memory. A password is never part of an error or the URL shown.
#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>

#include "flightrec/common/result.h"

namespace flightrec::replay {

struct FetchLimits {
  std::chrono::milliseconds connect_timeout{30000};  // to establish the connection (and TLS)
  std::chrono::milliseconds read_timeout{30000};     // longest wait for the next byte
  size_t max_header_bytes = size_t{64} << 10;        // status line and headers
  // The body; memory use stays within it. 1 GiB is four times the daemon's default
  // web.max_dump_bytes (256 MiB), so what a default daemon serves fits.
  size_t max_body_bytes = size_t{1} << 30;
};

// How the client proves who it is and whom it trusts (replay's --ca-file, --cert-file, --key-file,
// --user, --password-file and their FLIGHTREC_* environment variables). Empty fields are unused:
// without ca_file the system's trust store verifies the server.
struct ClientCredentials {
  std::string ca_file;    // PEM CA bundle that signed the server's certificate
  std::string cert_file;  // PEM client certificate, for servers that require one (mTLS)
  std::string key_file;   // its private key (PEM); default: cert_file holds both
  std::string user;       // basic auth, sent only to the host of the URL (not after a redirect)
  std::string password;
};

// The body of a 200 answer, or what failed, naming the URL.
Result<std::string> http_get(std::string_view url, const FetchLimits& limits = {},
                             const ClientCredentials& credentials = {});

// The URL replay fetches for a source URL: /dump without format= gets format=raw (its default is
// JSON, which replay cannot read); anything else is fetched as given.
std::string recording_url(std::string_view url);

// The URL as errors show it: a password written in it (http://user:secret@host/) becomes "***".
std::string url_for_display(std::string_view url);

}  // namespace flightrec::replay
