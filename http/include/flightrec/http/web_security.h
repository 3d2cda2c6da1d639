#pragma once
// What stands in front of every route when --web.config.file is given: the web config in force
// (re-read on change, web_config_file.h) and basic authentication against its users. The Router
// asks it in dispatch() before any handler runs (router.h).
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "flightrec/http/basic_auth.h"
#include "flightrec/http/web_config.h"
#include "flightrec/http/web_config_file.h"

namespace flightrec::http {

class WebSecurity {
 public:
  // Throws std::runtime_error with every error of the file.
  explicit WebSecurity(std::filesystem::path config_file) : file_(std::move(config_file)) {}

  [[nodiscard]] std::shared_ptr<const WebConfig> config() { return file_.current(); }
  [[nodiscard]] const std::filesystem::path& path() const noexcept { return file_.path(); }

  // The user the Authorization header of a request from `client` (its address) authenticates
  // under `config` (basic_auth.h). The user's name is what the access roles (access.h, web.roles)
  // are looked up by.
  [[nodiscard]] Authentication authenticate(const WebConfig& config,
                                            std::optional<std::string_view> authorization,
                                            std::string_view client) {
    return authenticator_.authenticate(config.users, authorization, client);
  }

 private:
  WebConfigFile file_;
  BasicAuthenticator authenticator_;
};

}  // namespace flightrec::http
