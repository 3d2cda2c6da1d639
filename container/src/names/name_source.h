#pragma once
// A source of names (a directory the kubelet or a runtime keeps, or one state file): looked at
// for changes, read again whole only when it changed, its findings kept in a NameTable with
// their grace period. Each kind of source says how it is read (scan).
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/names/name_resolver.h"
#include "flightrec/container/names/name_settings.h"
#include "name_table.h"
#include "node_files.h"

namespace flightrec::container::names::detail {

// What one refresh of every source shares: the time, the limits, and where the counts and the
// problems go.
struct RefreshContext {
  int64_t now_ns = 0;
  const NameSettings& settings;
  NameStats& stats;
  std::vector<std::string>& problems;
};

class NameSource {
 public:
  explicit NameSource(std::filesystem::path path) : path_(std::move(path)) {}
  NameSource(const NameSource&) = delete;
  NameSource& operator=(const NameSource&) = delete;
  virtual ~NameSource() = default;

  // Reads the source again if it changed since the last read (or its last read left something
  // to come back for), then ages its gone rows.
  void refresh(RefreshContext& context);

  [[nodiscard]] const NameTable& table() const { return table_; }

 protected:
  // The source read whole (`stamp` is its stamp just taken): its findings, or an error (the
  // last findings are then kept).
  virtual Result<Findings> scan(RefreshContext& context, const FileStamp& stamp) = 0;
  // True when the last scan saw something not ready yet (a container directory whose state
  // file is not written), so the next refresh reads it again even if its stamp did not change.
  [[nodiscard]] virtual bool waiting() const { return false; }

  // A problem found by this refresh: passed on unless the previous refresh found it too.
  void report(RefreshContext& context, std::string problem);
  // The problem of a source that holds more than settings.max_containers entries.
  void report_limit(RefreshContext& context);

  const std::filesystem::path path_;

 private:
  FileStamp stamp_;  // of the last read; none yet: the first refresh always reads
  bool read_once_ = false;
  std::set<std::string> reported_;   // by the previous refresh that did any work
  std::set<std::string> reporting_;  // by this one
  NameTable table_;
};

}  // namespace flightrec::container::names::detail
