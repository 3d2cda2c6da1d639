#include "flightrec/container/names/kubernetes_names.h"

#include <array>
#include <cstddef>
#include <optional>

#include "flightrec/common/printable.h"

namespace flightrec::container::names {
namespace {

constexpr size_t kIdDigits = 64;
// The longest name Kubernetes allows for a pod (a DNS subdomain); namespaces and containers are
// DNS labels of at most 63.
constexpr size_t kMaxNameBytes = 253;
// A UUID is 36; a static pod's uid is 32 hex digits. More is no uid the kubelet wrote.
constexpr size_t kMaxUidBytes = 64;

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// A DNS subdomain's characters (lowercase letters, digits, '-' and '.'): what every name the
// kubelet puts in a path is made of.
bool is_kubernetes_name(std::string_view text) {
  if (text.empty() || text.size() > kMaxNameBytes) return false;
  for (const char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

bool is_pod_uid(std::string_view text) {
  if (text.empty() || text.size() > kMaxUidBytes) return false;
  for (const char c : text) {
    if (!is_lower_hex(c) && c != '-') return false;
  }
  return true;
}

// `text` cut at every '_' into exactly N parts, or nothing.
template <size_t N>
std::optional<std::array<std::string_view, N>> split_exactly(std::string_view text) {
  std::array<std::string_view, N> parts;
  for (size_t i = 0; i + 1 < N; ++i) {
    const size_t cut = text.find('_');
    if (cut == std::string_view::npos) return std::nullopt;
    parts[i] = text.substr(0, cut);
    text.remove_prefix(cut + 1);
  }
  if (text.find('_') != std::string_view::npos) return std::nullopt;
  parts[N - 1] = text;
  return parts;
}

Error parts_error(size_t wanted, std::string_view shape) {
  return Error{"not " + std::to_string(wanted) + " parts separated by '_' (" + std::string(shape) +
               ")"};
}

Error bad_part(std::string_view what, std::string_view value) {
  return Error{std::string(what) + " " + quote_for_error(value, {.max_bytes = 80}) +
               " is not a Kubernetes name"};
}

Error bad_uid(std::string_view uid) {
  return Error{"uid " + quote_for_error(uid, {.max_bytes = 80}) +
               " is not lowercase hex digits and '-'"};
}

// The namespace, pod and uid of a "<namespace>_<pod>_<uid>" pod directory name.
Result<ContainerNames> pod_of(std::string_view dir_name) {
  const auto parts = split_exactly<3>(dir_name);
  if (!parts) return parts_error(3, "<namespace>_<pod>_<uid>");
  const auto [pod_namespace, pod, uid] = *parts;
  if (!is_kubernetes_name(pod_namespace)) return bad_part("namespace", pod_namespace);
  if (!is_kubernetes_name(pod)) return bad_part("pod", pod);
  if (!is_pod_uid(uid)) return bad_uid(uid);
  ContainerNames names;
  names.pod_namespace = pod_namespace;
  names.pod = pod;
  names.pod_uid = uid;
  return names;
}

}  // namespace

bool is_container_id(std::string_view text) noexcept {
  if (text.size() != kIdDigits) return false;
  for (const char c : text) {
    if (!is_lower_hex(c)) return false;
  }
  return true;
}

std::string normalize_pod_uid(std::string_view uid) {
  std::string out(uid);
  for (char& c : out) {
    if (c == '_') c = '-';
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Result<ContainerNames> parse_container_log_name(std::string_view file_name) {
  constexpr std::string_view kSuffix = ".log";
  if (!file_name.ends_with(kSuffix)) return Error{"no \".log\" at the end"};
  std::string_view stem = file_name.substr(0, file_name.size() - kSuffix.size());
  if (stem.size() < kIdDigits + 1 || stem[stem.size() - kIdDigits - 1] != '-' ||
      !is_container_id(stem.substr(stem.size() - kIdDigits))) {
    return Error{"no '-' and 64-hex-digit container id before \".log\""};
  }
  const std::string_view id = stem.substr(stem.size() - kIdDigits);
  stem.remove_suffix(kIdDigits + 1);
  const auto parts = split_exactly<3>(stem);
  if (!parts) return parts_error(3, "<pod>_<namespace>_<container>-<id>.log");
  const auto [pod, pod_namespace, container] = *parts;
  if (!is_kubernetes_name(pod)) return bad_part("pod", pod);
  if (!is_kubernetes_name(pod_namespace)) return bad_part("namespace", pod_namespace);
  if (!is_kubernetes_name(container)) return bad_part("container", container);
  ContainerNames names;
  names.id = id;
  names.pod_namespace = pod_namespace;
  names.pod = pod;
  names.container = container;
  return names;
}

Result<ContainerNames> parse_pod_log_dir(std::string_view dir_name) { return pod_of(dir_name); }

Result<ContainerNames> parse_pod_log_target(std::string_view target) {
  // The last three components: the pod's directory, the container's, the log file.
  const size_t file_cut = target.rfind('/');
  const size_t container_cut =
      file_cut == std::string_view::npos ? file_cut : target.rfind('/', file_cut - 1);
  if (file_cut == 0 || container_cut == std::string_view::npos) {
    return Error{"not .../<namespace>_<pod>_<uid>/<container>/<n>.log"};
  }
  const size_t pod_cut =
      container_cut == 0 ? std::string_view::npos : target.rfind('/', container_cut - 1);
  const size_t pod_start = pod_cut == std::string_view::npos ? 0 : pod_cut + 1;
  auto names = pod_of(target.substr(pod_start, container_cut - pod_start));
  if (!names) return names;
  const std::string_view container = target.substr(container_cut + 1, file_cut - container_cut - 1);
  if (!is_kubernetes_name(container)) return bad_part("container", container);
  if (!target.ends_with(".log")) return Error{"no \".log\" at the end"};
  names->container = container;
  return names;
}

Result<ContainerNames> parse_kubelet_container_name(std::string_view name) {
  if (name.starts_with('/')) name.remove_prefix(1);
  const auto parts = split_exactly<6>(name);
  if (!parts || (*parts)[0] != "k8s") {
    return parts_error(6, "k8s_<container>_<pod>_<namespace>_<uid>_<attempt>");
  }
  const auto [prefix, container, pod, pod_namespace, uid, attempt] = *parts;
  // "POD" is the name dockershim and CRI-O give a pod's sandbox: not a DNS label, but theirs.
  if (container != "POD" && !is_kubernetes_name(container)) return bad_part("container", container);
  if (!is_kubernetes_name(pod)) return bad_part("pod", pod);
  if (!is_kubernetes_name(pod_namespace)) return bad_part("namespace", pod_namespace);
  if (!is_pod_uid(uid)) return bad_uid(uid);
  if (attempt.empty() || attempt.find_first_not_of("0123456789") != std::string_view::npos) {
    return Error{"attempt " + quote_for_error(attempt, {.max_bytes = 80}) + " is not a number"};
  }
  ContainerNames names;
  names.pod_namespace = pod_namespace;
  names.pod = pod;
  names.pod_uid = uid;
  names.container = container;
  names.name = name;
  return names;
}

}  // namespace flightrec::container::names
