#include "flightrec/config/loader.h"

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "flightrec/common/printable.h"
#include "flightrec/config/detail/document_scan.h"
#include "flightrec/config/detail/key_tree.h"
#include "flightrec/config/detail/map_keys.h"
#include "flightrec/config/detail/text.h"
#include "flightrec/config/schema.h"
#include "trigger_list.h"

namespace flightrec::config {
namespace {

using detail::describe;
using detail::join;
using detail::quote;

// Walks one YAML document against the key table, applying every valid value to a Config that
// starts at the defaults and collecting an error for everything else.
class DocumentLoader {
 public:
  explicit DocumentLoader(std::string_view origin) : origin_(origin) {}

  LoadResult load(std::string_view yaml) {
    try {
      load_text(std::string(yaml));
    } catch (const YAML::Exception& error) {
      errors_.push_back(location(error.mark, true) + detail::yaml_error_text(error));
    }
    LoadResult result;
    result.origin = origin_;
    result.errors = std::move(errors_);
    if (result.errors.empty()) result.config = config_;
    return result;
  }

 private:
  void load_text(const std::string& text) {
    // Scanned first: YAML::LoadAll alone can loop forever on malformed input (document_scan.h).
    detail::DocumentScan scan = detail::scan_documents(text);
    if (scan.stalled_at) {
      auto at = static_cast<size_t>(scan.stalled_at->pos);
      std::string unexpected = at < text.size() ? quote(text.substr(at, 1)) : "end of input";
      errors_.push_back(location(*scan.stalled_at, true) + "YAML syntax error: unexpected " +
                        unexpected);
      return;
    }
    if (scan.extra_content_at) {
      add_error(*scan.extra_content_at, "",
                "only one YAML document is allowed, found another here");
      return;
    }
    if (!scan.content_document) return;  // empty, comments only, or "---": the defaults
    std::vector<YAML::Node> documents = YAML::LoadAll(text);
    load_root(documents.at(*scan.content_document));
  }

  void load_root(const YAML::Node& root) {
    if (!root.IsMap()) {
      add_error(root.Mark(), "",
                "the top level must be a map of sections (" + join(detail::children("")) +
                    "), got " + describe(root));
      return;
    }
    walk_section(root, "");
    config_.triggers = rules_.finish();
    check_relations_between_keys();
  }

  void walk_section(const YAML::Node& map, const std::string& section) {
    detail::for_each_key(map, section, report_, [&](const detail::MapKey& entry) {
      // A dotted name would otherwise reach a key by its full path; keys are nested maps only.
      const bool dotted = entry.name.find('.') != std::string::npos;
      const KeySpec* spec = dotted ? nullptr : find_key(entry.path);
      if (section.empty() && detail::is_rule_section(entry.name)) {
        rules_.load(entry.name, entry.value);
      } else if (spec != nullptr) {
        apply_key(*spec, entry.key.Mark(), entry.value);
      } else if (!dotted && detail::is_section(entry.path)) {
        enter_section(entry.path, entry.key.Mark(), entry.value);
      } else {
        add_error(
            entry.key.Mark(), entry.path,
            detail::unknown_name(section.empty() ? "unknown section" : "unknown key",
                                 detail::suggest(section, entry.name), detail::children(section)));
      }
    });
  }

  void enter_section(const std::string& path, const YAML::Mark& mark, const YAML::Node& value) {
    if (value.IsMap()) {
      walk_section(value, path);
    } else if (!value.IsNull()) {  // "sampler:" with every key commented out is fine
      add_error(
          mark, path,
          "expected a map of keys (" + join(detail::children(path)) + "), got " + describe(value));
    }
  }

  void apply_key(const KeySpec& spec, const YAML::Mark& mark, const YAML::Node& value) {
    written_.emplace(spec.path, mark);
    std::string expected =
        "expected a " + std::string(type_name(spec)) + " (allowed: " + allowed_values(spec) + ")";
    Status applied;
    if (value.IsScalar()) {
      applied = apply_value(spec, value.Scalar(), config_);
    } else if (takes_collection(spec) && (value.IsSequence() || value.IsMap())) {
      // Re-spelled in flow style, the one form apply_value reads collections in.
      YAML::Emitter flow;
      flow << YAML::Flow << value;
      applied = apply_value(spec, flow.c_str(), config_);
    } else {
      // An empty value is an error rather than the default: the user wrote the key for a reason.
      applied = Error{expected + ", got " + describe(value)};
    }
    if (!applied) {
      failed_.insert(spec.path);
      add_error(mark, spec.path, applied.error());
    }
  }

  void check_relations_between_keys() {
    for (const RelationError& relation : check_relations(config_)) {
      // A key that already failed kept its default; a rule broken by that default is noise.
      if (failed_.contains(relation.key) || failed_.contains(relation.other_key)) continue;
      auto where = written_.find(relation.key);
      if (where == written_.end()) where = written_.find(relation.other_key);
      YAML::Mark mark = where == written_.end() ? YAML::Mark::null_mark() : where->second;
      add_error(mark, relation.key, relation.message);
    }
  }

  std::string location(const YAML::Mark& mark, bool with_column) const {
    std::string out = origin_;
    if (!mark.is_null()) {
      out += ":" + std::to_string(mark.line + 1);
      if (with_column) out += ":" + std::to_string(mark.column + 1);
    }
    return out + ": ";
  }

  // Every error is made here, and check-config prints it to a terminal. A key path holds the
  // file's own key names, which like its values may hold anything: one that is not printable is
  // quoted with escapes. Values are quoted where the messages are made; what a message echoes
  // unquoted (a regex library's complaint about the pattern) is escaped on its way out.
  void add_error(const YAML::Mark& mark, std::string_view path, const std::string& message) {
    std::string line = location(mark, false);
    if (!path.empty())
      line += (is_printable(path) ? std::string(path) : detail::quote(path)) + ": ";
    errors_.push_back(escape_unprintable(line + message, Newlines::escape));
  }

  std::string origin_;
  Config config_;
  detail::ReportError report_ = [this](const YAML::Mark& mark, const std::string& path,
                                       const std::string& message) {
    add_error(mark, path, message);
  };
  detail::TriggerRulesLoader rules_{report_};
  std::vector<std::string> errors_;
  std::map<std::string_view, YAML::Mark, std::less<>> written_;  // keys the file set
  std::set<std::string_view, std::less<>> failed_;               // keys with a bad value
};

}  // namespace

LoadResult load_from_string(std::string_view yaml, std::string_view origin_name) {
  return DocumentLoader(origin_name).load(yaml);
}

}  // namespace flightrec::config
