#pragma once
// What a configuration reload (SIGHUP, POST /-/reload) may change while the daemon runs. Settings
// that size or wire components at start-up (sampler, buffer, sources, listen address, ...) keep
// their running value until a restart; the rest take effect at once. docs/CONFIG.md, "Reloading".
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flightrec/config/config.h"
#include "flightrec/exposition/collectable.h"

namespace flightrec::app {

struct ReloadPlan {
  // The loaded file with every setting that cannot change live kept at its running value: what
  // the daemon runs with after the reload.
  config::Config effective;
  std::vector<std::string> applied;  // keys that change now ("triggers" for the rule list)
  std::vector<std::string> kept;     // keys the file changes that wait for a restart
};

[[nodiscard]] ReloadPlan plan_reload(const config::Config& running, const config::Config& loaded);

// The keys plan_reload applies live, for the docs and messages.
[[nodiscard]] const std::vector<std::string_view>& live_keys();

// The outcome of the last reload, in Prometheus's own names:
// flightrec_config_last_reload_successful and
// flightrec_config_last_reload_success_timestamp_seconds (the start counts as the first successful
// load).
class ReloadStatus final : public exposition::Collectable {
 public:
  explicit ReloadStatus(int64_t loaded_real_ns) : success_real_ns_(loaded_real_ns) {}
  void succeeded(int64_t real_ns) {
    success_real_ns_.store(real_ns);
    successful_.store(true);
  }
  void failed() { successful_.store(false); }
  void collect(exposition::Families& out) const override;

 private:
  std::atomic<bool> successful_{true};
  std::atomic<int64_t> success_real_ns_;
};

}  // namespace flightrec::app
