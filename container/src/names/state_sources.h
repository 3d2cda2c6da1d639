#pragma once
// The runtimes' state files: one per container in a directory named by its id (Docker's
// config.v2.json, containerd's bundle config.json), or one list of every container
// (containers/storage's containers.json).
#include <map>
#include <optional>
#include <string>

#include "flightrec/container/names/runtime_state.h"
#include "name_source.h"

namespace flightrec::container::names::detail {

// <dir>/<id>/<file> for every <id> of 64 hex digits. A file is read when it is new or changed
// since it was last read: a stat per container, when the directory changed (a container came
// or went) or a file is awaited (not yet written, or not readable as it should be). A file
// rewritten in place (Docker's on a rename) is seen at the next container's arrival or
// departure.
class ContainerFileSource final : public NameSource {
 public:
  using Parse = Result<ContainerNames> (*)(std::string_view text);

  ContainerFileSource(std::filesystem::path dir, std::string file, Parse parse)
      : NameSource(std::move(dir)), file_(std::move(file)), parse_(parse) {}

 private:
  Result<Findings> scan(RefreshContext& context, const FileStamp& stamp) override;
  [[nodiscard]] bool waiting() const override { return waiting_; }

  struct Read {
    FileStamp stamp;
    std::optional<ContainerNames> names;  // none when the file was not what it should be
  };
  // The file of container `id`, read again only if its stamp says it changed.
  std::optional<ContainerNames> read(RefreshContext& context, const std::string& id);

  const std::string file_;
  const Parse parse_;
  std::map<std::string, Read, std::less<>> reads_;  // by id, for the containers listed
  bool waiting_ = false;                            // some listed container's file is awaited
};

// One containers.json (or volatile-containers.json), read whole when it changes.
class ContainerListSource final : public NameSource {
 public:
  using NameSource::NameSource;

 private:
  Result<Findings> scan(RefreshContext& context, const FileStamp& stamp) override;
};

}  // namespace flightrec::container::names::detail
