// Parsing the web config with the config file's own checks (config/src: the document scan that
// keeps yaml-cpp from looping on malformed input, the key walk with duplicates and did-you-mean,
// and the quoting of values), so both files report mistakes in the same words.
#include "flightrec/http/web_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>

#include "flightrec/config/detail/document_scan.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/map_keys.h"
#include "flightrec/config/detail/text.h"
#include "web_config_names.h"

namespace flightrec::http {
namespace {

namespace cfg = config::detail;

// exporter-toolkit keys flightrec's web server cannot honour.
constexpr std::string_view kUnsupported = "not supported by flightrec";

// One "a, b or c" list of what a value may be.
std::string one_of(const std::vector<std::string_view>& names) {
  return " (one of: " + cfg::join(names) + ")";
}

bool is_bcrypt_hash(std::string_view hash) {
  // $2y$10$ + 22 characters of salt + 31 of hash, the form crypt(3) and Go's bcrypt read.
  if (hash.size() != 60 || !hash.starts_with("$2") || hash[3] != '$' || hash[6] != '$') {
    return false;
  }
  if (hash[2] != 'a' && hash[2] != 'b' && hash[2] != 'y') return false;
  if (hash[4] < '0' || hash[4] > '3' || hash[5] < '0' || hash[5] > '9') return false;
  const int cost = (hash[4] - '0') * 10 + (hash[5] - '0');
  if (cost < 4 || cost > 31) return false;
  return std::all_of(hash.begin() + 7, hash.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '/';
  });
}

bool single_line(std::string_view value) {
  return std::none_of(value.begin(), value.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 && c != '\t'; });
}

class WebConfigParser {
 public:
  WebConfigParser(std::string_view origin, std::filesystem::path base_dir)
      : origin_(origin), base_dir_(std::move(base_dir)) {}

  WebConfigResult parse(std::string_view yaml) {
    try {
      parse_text(std::string(yaml));
    } catch (const YAML::Exception& error) {
      add(error.mark, "", cfg::yaml_error_text(error));
    }
    WebConfigResult result;
    result.errors = std::move(errors_);
    if (result.errors.empty()) result.config = std::move(config_);
    return result;
  }

 private:
  void add(const YAML::Mark& mark, std::string_view path, const std::string& message) {
    std::string line = std::string(origin_);
    if (!mark.is_null()) line += ":" + std::to_string(mark.line + 1);
    line += ": ";
    if (!path.empty()) line += std::string(path) + ": ";
    errors_.push_back(line + message);
  }

  void parse_text(const std::string& text) {
    const cfg::DocumentScan scan = cfg::scan_documents(text);
    if (scan.stalled_at) {
      const auto at = static_cast<size_t>(scan.stalled_at->pos);
      add(*scan.stalled_at, "",
          "YAML syntax error: unexpected " +
              (at < text.size() ? cfg::quote(text.substr(at, 1)) : "end of input"));
      return;
    }
    if (scan.extra_content_at) {
      add(*scan.extra_content_at, "", "only one YAML document is allowed, found another here");
      return;
    }
    if (!scan.content_document) return;  // empty or comments only: nothing enabled
    const YAML::Node root = YAML::LoadAll(text).at(*scan.content_document);
    if (!root.IsMap()) {
      add(root.Mark(), "", "the top level must be a map, got " + cfg::describe(root));
      return;
    }
    for_each(root, "", {"tls_server_config", "http_server_config", "basic_auth_users"},
             [&](const cfg::MapKey& entry) {
               if (entry.name == "tls_server_config") tls_section(entry);
               if (entry.name == "http_server_config") http_section(entry);
               if (entry.name == "basic_auth_users") users_section(entry);
             },
             {"rate_limit"});
  }

  // Walks a map whose keys are `known`; the keys exporter-toolkit has and flightrec cannot honour
  // (`unsupported`) are errors that say so rather than "unknown key".
  void for_each(const YAML::Node& map, std::string_view path,
                const std::vector<std::string_view>& known,
                const std::function<void(const cfg::MapKey&)>& visit,
                const std::vector<std::string_view>& unsupported = {}) {
    const cfg::ReportError report = [this](const YAML::Mark& mark, const std::string& key,
                                           const std::string& message) { add(mark, key, message); };
    cfg::for_each_key(map, path, report, [&](const cfg::MapKey& entry) {
      if (std::find(known.begin(), known.end(), entry.name) != known.end()) {
        visit(entry);
      } else if (std::find(unsupported.begin(), unsupported.end(), entry.name) !=
                 unsupported.end()) {
        add(entry.key.Mark(), entry.path,
            std::string(kUnsupported) +
                (entry.name == "rate_limit"
                     ? " (civetweb's num_threads bounds concurrent requests)"
                     : " (put the PEM text in a file and name it in " + entry.name + "_file)"));
      } else {
        add(entry.key.Mark(), entry.path,
            cfg::unknown_name("unknown key", cfg::suggest_among(path, entry.name, known), known));
      }
    });
  }

  bool is_map(const cfg::MapKey& entry) {
    if (entry.value.IsMap() || entry.value.IsNull()) return true;
    add(entry.value.Mark(), entry.path, "expected a map, got " + cfg::describe(entry.value));
    return false;
  }

  // A scalar's text; null (`key:` with nothing after it) reads as "".
  std::optional<std::string> scalar(const cfg::MapKey& entry) {
    if (entry.value.IsNull()) return std::string();
    if (entry.value.IsScalar()) return entry.value.Scalar();
    add(entry.value.Mark(), entry.path, "expected a string, got " + cfg::describe(entry.value));
    return std::nullopt;
  }

  std::vector<std::string> list(const cfg::MapKey& entry) {
    std::vector<std::string> out;
    if (entry.value.IsNull()) return out;
    if (!entry.value.IsSequence()) {
      add(entry.value.Mark(), entry.path, "expected a list, got " + cfg::describe(entry.value));
      return out;
    }
    for (size_t i = 0; i < entry.value.size(); ++i) {
      const YAML::Node item = entry.value[i];
      if (!item.IsScalar()) {
        add(item.Mark(), entry.path + "[" + std::to_string(i) + "]",
            "expected a string, got " + cfg::describe(item));
        continue;
      }
      out.push_back(item.Scalar());
    }
    return out;
  }

  // Each item through `find`, which returns the value or nullopt for a name it does not know.
  template <typename T, typename Find>
  std::vector<T> named_list(const cfg::MapKey& entry, Find find, std::string_view what,
                            const std::vector<std::string_view>& known) {
    std::vector<T> out;
    const auto names = list(entry);
    for (size_t i = 0; i < names.size(); ++i) {
      if (auto value = find(names[i])) {
        out.push_back(*value);
      } else {
        add(entry.value[i].Mark(), entry.path + "[" + std::to_string(i) + "]",
            cfg::quote(names[i]) + " is not " + std::string(what) + one_of(known));
      }
    }
    return out;
  }

  void file_setting(const cfg::MapKey& entry, FileSetting& out) {
    const auto text = scalar(entry);
    if (!text || text->empty()) return;
    out.path = base_dir_ / *text;  // an absolute path replaces base_dir_
    out.line = entry.key.Mark().line + 1;
  }

  void tls_key(const cfg::MapKey& entry) {
    TlsServerConfig& tls = config_.tls;
    const std::string& name = entry.name;
    if (name == "cert_file") file_setting(entry, tls.cert_file);
    if (name == "key_file") file_setting(entry, tls.key_file);
    if (name == "client_ca_file") file_setting(entry, tls.client_ca_file);
    if (name == "client_auth_type") {
      auto text = scalar(entry);
      if (!text) return;
      client_auth_written_ = !text->empty();
      if (text->empty()) return;
      if (auto auth = detail::find_client_auth(*text)) {
        tls.client_auth = *auth;
      } else {
        add(entry.value.Mark(), entry.path,
            cfg::quote(*text) + " is not a client auth type" + one_of(detail::client_auth_names()));
      }
    }
    if (name == "min_version" || name == "max_version") {
      auto text = scalar(entry);
      if (!text) return;
      if (auto version = detail::find_tls_version(*text)) {
        (name == "min_version" ? tls.min_version : tls.max_version) = *version;
      } else {
        add(entry.value.Mark(), entry.path,
            cfg::quote(*text) + " is not a TLS version" + one_of(detail::tls_version_names()));
      }
    }
    if (name == "cipher_suites") {
      const auto ciphers = named_list<const detail::CipherName*>(
          entry,
          [](const std::string& go) -> std::optional<const detail::CipherName*> {
            if (const auto* row = detail::find_cipher(go)) return row;
            return std::nullopt;
          },
          "a cipher suite", detail::cipher_names());
      for (const auto* row : ciphers) {
        (row->tls13 ? tls.tls13_ciphers : tls.tls12_ciphers).emplace_back(row->openssl);
      }
    }
    if (name == "curve_preferences") {
      for (auto curve : named_list<std::string_view>(entry, detail::find_curve, "a curve",
                                                     detail::curve_names())) {
        tls.curves.emplace_back(curve);
      }
    }
    if (name == "prefer_server_cipher_suites") boolean(entry, tls.prefer_server_cipher_suites);
    if (name == "client_allowed_sans") tls.client_allowed_sans = list(entry);
  }

  void boolean(const cfg::MapKey& entry, bool& out) {
    const auto text = scalar(entry);
    if (!text) return;
    if (*text == "true" || *text == "True" || *text == "TRUE") {
      out = true;
    } else if (*text == "false" || *text == "False" || *text == "FALSE") {
      out = false;
    } else {
      add(entry.value.Mark(), entry.path, cfg::quote(*text) + " is not a boolean (true or false)");
    }
  }

  void tls_section(const cfg::MapKey& section) {
    if (!is_map(section)) return;
    for_each(section.value, section.path,
             {"cert_file", "key_file", "client_auth_type", "client_ca_file", "min_version",
              "max_version", "cipher_suites", "prefer_server_cipher_suites", "curve_preferences",
              "client_allowed_sans"},
             [&](const cfg::MapKey& entry) { tls_key(entry); }, {"cert", "key", "client_ca"});
    check_tls(section);
  }

  // The relations between the TLS keys, as exporter-toolkit checks them.
  void check_tls(const cfg::MapKey& section) {
    TlsServerConfig& tls = config_.tls;
    tls.enabled = !tls.cert_file.empty() || !tls.key_file.empty() || !tls.client_ca_file.empty() ||
                  client_auth_written_;
    if (!tls.enabled) return;
    const YAML::Mark at = section.key.Mark();
    if (tls.cert_file.empty()) add(at, section.path, "cert_file is required when TLS is on");
    if (tls.key_file.empty()) add(at, section.path, "key_file is required when TLS is on");
    if (!tls.client_ca_file.empty() && tls.client_auth == ClientAuth::none) {
      add(at, section.path,
          "client_ca_file is set but client_auth_type is NoClientCert: set client_auth_type "
          "(RequireAndVerifyClientCert to require verified client certificates)");
    }
    const bool verifies = tls.client_auth == ClientAuth::verify_if_given ||
                          tls.client_auth == ClientAuth::require_and_verify;
    if (verifies && tls.client_ca_file.empty()) {
      add(at, section.path,
          std::string(client_auth_name(tls.client_auth)) + " needs client_ca_file");
    }
    if (tls.min_version > tls.max_version) {
      add(at, section.path,
          "min_version " + std::string(tls_version_name(tls.min_version)) +
              " is above max_version " + std::string(tls_version_name(tls.max_version)));
    }
  }

  void http_section(const cfg::MapKey& section) {
    if (!is_map(section)) return;
    for_each(section.value, section.path, {"headers", "http2"}, [&](const cfg::MapKey& entry) {
      // HTTP/2 is offered over TLS by Go; civetweb speaks HTTP/1.1 only, which every client
      // accepts, so either value is taken and the answer is HTTP/1.1.
      bool http2 = true;
      if (entry.name == "http2") boolean(entry, http2);
      if (entry.name == "headers" && is_map(entry)) headers(entry);
    });
  }

  void headers(const cfg::MapKey& section) {
    const auto known = detail::allowed_header_names();
    for_each(section.value, section.path, known, [&](const cfg::MapKey& entry) {
      const auto value = scalar(entry);
      if (!value || value->empty()) return;  // blank: unset, as exporter-toolkit reads it
      const detail::AllowedHeader* allowed = detail::find_allowed_header(entry.name);
      if (!single_line(*value)) {
        add(entry.value.Mark(), entry.path, "a header value must be one line");
        return;
      }
      if (!allowed->values.empty() && std::find(allowed->values.begin(), allowed->values.end(),
                                                *value) == allowed->values.end()) {
        add(entry.value.Mark(), entry.path,
            cfg::quote(*value) + " is not allowed" + one_of(allowed->values));
        return;
      }
      config_.headers.emplace_back(entry.name, *value);
    });
  }

  void users_section(const cfg::MapKey& section) {
    if (!is_map(section)) return;
    const cfg::ReportError report = [this](const YAML::Mark& mark, const std::string& key,
                                           const std::string& message) { add(mark, key, message); };
    cfg::for_each_key(section.value, section.path, report, [&](const cfg::MapKey& entry) {
      const auto hash = scalar(entry);
      if (!hash) return;
      if (entry.name.empty() || entry.name.find(':') != std::string::npos ||
          !single_line(entry.name)) {
        add(entry.key.Mark(), entry.path,
            "a user name must be non-empty, one line, and hold no ':' (basic auth splits there)");
        return;
      }
      if (!is_bcrypt_hash(*hash)) {
        add(entry.value.Mark(), entry.path,
            "not a bcrypt hash (like $2y$10$ and 53 more characters; make one with "
            "htpasswd -nbBC 10 USER PASSWORD)");
        return;
      }
      config_.users.emplace(entry.name, *hash);
    });
  }

  std::string_view origin_;
  std::filesystem::path base_dir_;
  std::vector<std::string> errors_;
  WebConfig config_;
  bool client_auth_written_ = false;
};

}  // namespace

WebConfigResult parse_web_config(std::string_view yaml, std::string_view origin,
                                 const std::filesystem::path& base_dir) {
  return WebConfigParser(origin, base_dir).parse(yaml);
}

}  // namespace flightrec::http
