#pragma once
// The kubelet's log directories, read by their entries' names alone (the logs are not opened).
#include <map>
#include <string>

#include "name_source.h"

namespace flightrec::container::names::detail {

// /var/log/containers: a link per container, <pod>_<namespace>_<container>-<id>.log, pointing
// into /var/log/pods, whose text gives the pod's uid.
class ContainerLogSource final : public NameSource {
 public:
  using NameSource::NameSource;

 private:
  Result<Findings> scan(RefreshContext& context, const FileStamp& stamp) override;

  // By link name: what it gave (links are made once and never changed, so read once).
  std::map<std::string, ContainerNames, std::less<>> known_;
};

// /var/log/pods: a directory per pod, <namespace>_<pod>_<uid>; found by uid.
class PodLogSource final : public NameSource {
 public:
  using NameSource::NameSource;

 private:
  Result<Findings> scan(RefreshContext& context, const FileStamp& stamp) override;
};

}  // namespace flightrec::container::names::detail
