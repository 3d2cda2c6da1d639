#include "flightrec/config/detail/document_scan.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

#include <sstream>

namespace flightrec::config::detail {
namespace {

// Records where each document starts and whether it holds anything but a lone null.
class DocumentWatcher : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override {
    start_ = mark;
    has_content_ = false;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { has_content_ = true; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {
    has_content_ = true;
  }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    has_content_ = true;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    has_content_ = true;
  }
  void OnMapEnd() override {}

  [[nodiscard]] const YAML::Mark& start() const { return start_; }
  [[nodiscard]] bool has_content() const { return has_content_; }

 private:
  YAML::Mark start_;
  bool has_content_ = false;
};

}  // namespace

DocumentScan scan_documents(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentWatcher watcher;
  DocumentScan scan;
  std::optional<int> previous_start;
  for (size_t index = 0; parser.HandleNextDocument(watcher); ++index) {
    // Every real document consumes at least one token, so it starts after the previous one.
    if (previous_start == watcher.start().pos) {
      scan.stalled_at = watcher.start();
      return scan;
    }
    previous_start = watcher.start().pos;
    if (!watcher.has_content()) continue;
    if (scan.content_document) {
      scan.extra_content_at = watcher.start();
      return scan;
    }
    scan.content_document = index;
  }
  return scan;
}

}  // namespace flightrec::config::detail
