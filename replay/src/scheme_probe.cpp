#include "scheme_probe.h"

#include <curl/curl.h>

#include <memory>

namespace flightrec::replay::detail {
namespace {

struct UrlDeleter {
  void operator()(CURLU* url) const { curl_url_cleanup(url); }
};
struct EasyDeleter {
  void operator()(CURL* easy) const { curl_easy_cleanup(easy); }
};

std::string part(CURLU* url, CURLUPart which, unsigned flags = 0) {
  char* text = nullptr;
  std::string out;
  if (curl_url_get(url, which, &text, flags) == CURLUE_OK) out = text;
  curl_free(text);
  return out;
}

}  // namespace

std::optional<std::string> other_scheme_hint(std::string_view url,
                                             std::chrono::milliseconds timeout) {
  const std::unique_ptr<CURLU, UrlDeleter> parts(curl_url());
  if (!parts ||
      curl_url_set(parts.get(), CURLUPART_URL, std::string(url).c_str(), 0) != CURLUE_OK) {
    return std::nullopt;
  }
  const std::string scheme = part(parts.get(), CURLUPART_SCHEME);
  if (scheme != "http" && scheme != "https") return std::nullopt;
  const bool was_https = scheme == "https";
  const std::string host = part(parts.get(), CURLUPART_HOST);
  // The port the request went to, also when the URL left it to the scheme's default.
  const std::string port = part(parts.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
  const std::string probe_url = (was_https ? "http://" : "https://") + host + ":" + port + "/";

  const std::unique_ptr<CURL, EasyDeleter> easy(curl_easy_init());
  if (!easy) return std::nullopt;
  CURL* e = easy.get();
  curl_easy_setopt(e, CURLOPT_URL, probe_url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_USERAGENT, "flightrec-replay");
  if (was_https) {
    // A HEAD without credentials: the status line alone shows that the port speaks plain HTTP.
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else {
    // The handshake alone: nothing is sent over it, so an unchecked certificate costs nothing.
    curl_easy_setopt(e, CURLOPT_CONNECT_ONLY, 1L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  const CURLcode code = curl_easy_perform(e);
  long status = 0;
  curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  const bool speaks_other = was_https ? status > 0 : code == CURLE_OK;
  if (!speaks_other) return std::nullopt;
  const std::string where = "the server at " + host + " port " + port;
  return was_https ? where + " speaks plain HTTP, not HTTPS: use an http:// URL"
                   : where + " speaks HTTPS, not plain HTTP: use an https:// URL";
}

}  // namespace flightrec::replay::detail
