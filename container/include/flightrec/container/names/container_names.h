#pragma once
// What a container is called, as the node itself knows it: the Kubernetes names (namespace, pod,
// container) the kubelet writes into its log paths and the runtimes into their state, and the
// runtime's own name and image. The fields become the labels cAdvisor and the kubelet use
// (`namespace`, `pod`, `container`, `image`, `name`, `id`).
//
// Every field is kept as read: a name comes from files other programs wrote (a container's own
// labels among them), so whoever turns it into a label value or a line of text escapes it there
// (common/printable.h, common/utf8.h); nothing here promises printable UTF-8.
#include <string>

namespace flightrec::container::names {

struct ContainerNames {
  std::string id;             // the runtime's container id: 64 lowercase hex digits
  std::string pod_namespace;  // Kubernetes only: the pod's namespace
  std::string pod;            // the pod's name
  std::string pod_uid;        // the pod's uid, as the kubelet writes it (lowercase, with '-')
  std::string container;      // the container's name in the pod spec ("POD" for a sandbox
                              // named by dockershim or CRI-O)
  std::string name;           // the runtime's own name: Docker's (no leading '/'), Podman's
                              // first; for a kubelet-made one k8s_<container>_<pod>_...
  std::string image;          // the image as the runtime recorded it (a reference, or an id)
  // Known only because of the grace period: every source that named it has since lost it (the
  // container exited and was removed, perhaps OOM-killed).
  bool gone = false;

  friend bool operator==(const ContainerNames&, const ContainerNames&) = default;
};

}  // namespace flightrec::container::names
