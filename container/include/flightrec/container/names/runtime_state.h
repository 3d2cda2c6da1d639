#pragma once
// The runtimes' own records of their containers, parsed from the bytes of the files they keep on
// the node (read-only: nothing here writes, locks or talks to a runtime). Each keeps only the
// names; the rest of a record (environment variables, which may hold secrets, mounts, the
// command) is not copied. Errors name the field that was wrong ("Config.Labels: expected an
// object, got array"); the reader adds the file.
#include <string_view>
#include <vector>

#include "flightrec/common/result.h"
#include "flightrec/container/names/container_names.h"

namespace flightrec::container::names {

// Docker's <data-root>/containers/<id>/config.v2.json: the id (ID), name (Name), image
// (Config.Image), and the Kubernetes names from the io.kubernetes.* labels of Config.Labels that
// dockershim and cri-dockerd set, or else from a k8s_... name.
Result<ContainerNames> parse_docker_config(std::string_view text);

// containers/storage's list of containers (Podman's and CRI-O's <graphroot>/<driver>-containers/
// containers.json, and volatile-containers.json beside it or in the run root): per entry the id,
// the first of its names, the image from the "image-name" of its metadata (a JSON document in a
// string), and for CRI-O the Kubernetes names from its k8s_... name.
Result<std::vector<ContainerNames>> parse_storage_containers(std::string_view text);

// containerd's bundle of a running task, <state>/io.containerd.runtime.v2.task/k8s.io/<id>/
// config.json (an OCI runtime spec): the Kubernetes names and the image from the
// io.kubernetes.cri.* annotations its CRI plugin writes. The id is the bundle directory's name,
// not in the file, so it is left empty.
Result<ContainerNames> parse_bundle_config(std::string_view text);

}  // namespace flightrec::container::names
