#include "flightrec/container/names/kubernetes_names.h"

#include <catch2/catch.hpp>
#include <string>

namespace flightrec::container::names {
namespace {

const std::string kId = "4f7c2a1e9b3d5f60718293a4b5c6d7e8f9012345678901234567890abcdef012";

TEST_CASE("a container log link's name gives the pod, namespace, container and id", "[names]") {
  const auto names = parse_container_log_name("web-7d9f8b6c5-x2kqp_shop_nginx-" + kId + ".log");
  REQUIRE(names);
  CHECK(names->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(names->pod_namespace == "shop");
  CHECK(names->container == "nginx");
  CHECK(names->id == kId);
  CHECK(names->pod_uid.empty());
}

TEST_CASE("a container name may hold '-' and a pod name '.': the id is the last 64 digits",
          "[names]") {
  const auto names =
      parse_container_log_name("etcd-node-1.example_kube-system_etcd-backup-" + kId + ".log");
  REQUIRE(names);
  CHECK(names->pod == "etcd-node-1.example");
  CHECK(names->pod_namespace == "kube-system");
  CHECK(names->container == "etcd-backup");
}

TEST_CASE("a log link name that is not the kubelet's says what is wrong with it", "[names]") {
  CHECK(parse_container_log_name("pod_ns_c-" + kId).error() == "no \".log\" at the end");
  CHECK(parse_container_log_name("pod_ns_c-" + kId.substr(1) + ".log").error() ==
        "no '-' and 64-hex-digit container id before \".log\"");
  std::string upper = kId;
  upper[0] = 'F';
  CHECK_FALSE(parse_container_log_name("pod_ns_c-" + upper + ".log"));
  CHECK(parse_container_log_name("pod_ns-" + kId + ".log").error() ==
        "not 3 parts separated by '_' (<pod>_<namespace>_<container>-<id>.log)");
  CHECK_FALSE(parse_container_log_name("pod_ns_c_d-" + kId + ".log"));
  CHECK(parse_container_log_name("Pod_ns_c-" + kId + ".log").error() ==
        "pod \"Pod\" is not a Kubernetes name");
  CHECK(parse_container_log_name("pod__c-" + kId + ".log").error() ==
        "namespace \"\" is not a Kubernetes name");
  CHECK(parse_container_log_name("pod_ns_c\x1b[1m-" + kId + ".log").error() ==
        "container \"c\\x1b[1m\" is not a Kubernetes name");
  CHECK_FALSE(parse_container_log_name(".log"));
  CHECK_FALSE(parse_container_log_name(""));
}

TEST_CASE("a pod log directory gives the namespace, pod and uid", "[names]") {
  const auto pod =
      parse_pod_log_dir("shop_web-7d9f8b6c5-x2kqp_0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  REQUIRE(pod);
  CHECK(pod->pod_namespace == "shop");
  CHECK(pod->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(pod->pod_uid == "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  // A static pod's uid is its manifest's hash.
  const auto mirror = parse_pod_log_dir("kube-system_etcd-node-1_9b2c1f0e8d7a6b5c4d3e2f1a0b9c8d7e");
  REQUIRE(mirror);
  CHECK(mirror->pod_uid == "9b2c1f0e8d7a6b5c4d3e2f1a0b9c8d7e");

  CHECK(parse_pod_log_dir("shop_web").error() ==
        "not 3 parts separated by '_' (<namespace>_<pod>_<uid>)");
  CHECK(parse_pod_log_dir("shop_web_0F3C").error() ==
        "uid \"0F3C\" is not lowercase hex digits and '-'");
  CHECK_FALSE(parse_pod_log_dir("shop_web_"));
}

TEST_CASE("a log link's target gives the pod's uid", "[names]") {
  const auto pod = parse_pod_log_target(
      "/var/log/pods/shop_web-0_0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5/nginx/3.log");
  REQUIRE(pod);
  CHECK(pod->pod_namespace == "shop");
  CHECK(pod->pod == "web-0");
  CHECK(pod->pod_uid == "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  CHECK(pod->container == "nginx");
  CHECK(parse_pod_log_target("shop_web-0_0f3c/nginx/0.log"));
  CHECK_FALSE(parse_pod_log_target("nginx/0.log"));
  CHECK_FALSE(parse_pod_log_target("/nginx/0.log"));
  CHECK_FALSE(parse_pod_log_target("/var/log/pods/shop_web-0_0f3c/nginx/0.txt"));
  CHECK_FALSE(parse_pod_log_target("/var/log/pods/shop_web-0_0f3c/nginx/"));
  CHECK_FALSE(parse_pod_log_target("/"));
  CHECK_FALSE(parse_pod_log_target(""));
}

TEST_CASE("a kubelet-made runtime name gives the Kubernetes names", "[names]") {
  const auto names =
      parse_kubelet_container_name("/k8s_nginx_web-0_shop_0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5_2");
  REQUIRE(names);
  CHECK(names->container == "nginx");
  CHECK(names->pod == "web-0");
  CHECK(names->pod_namespace == "shop");
  CHECK(names->pod_uid == "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  CHECK(names->name == "k8s_nginx_web-0_shop_0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5_2");
  const auto sandbox = parse_kubelet_container_name("k8s_POD_web-0_shop_0f3c_0");
  REQUIRE(sandbox);
  CHECK(sandbox->container == "POD");

  CHECK(parse_kubelet_container_name("k8s_nginx_web-0_shop_0f3c_x").error() ==
        "attempt \"x\" is not a number");
  CHECK_FALSE(parse_kubelet_container_name("k8s_nginx_web-0_shop_0f3c_"));
  CHECK_FALSE(parse_kubelet_container_name("k9s_nginx_web-0_shop_0f3c_0"));
  CHECK_FALSE(parse_kubelet_container_name("nostalgic_hopper"));
  CHECK_FALSE(parse_kubelet_container_name("k8s_nginx_web-0_shop_0f3c_0_extra"));
}

TEST_CASE("ids are 64 lowercase hex digits; cgroup uids are read as the kubelet writes them",
          "[names]") {
  CHECK(is_container_id(kId));
  CHECK_FALSE(is_container_id(kId.substr(1)));
  CHECK_FALSE(is_container_id(kId + "0"));
  CHECK_FALSE(is_container_id(std::string(64, 'g')));
  CHECK(normalize_pod_uid("0F3C5A8E_1B2D_4E6F_8A9B_C0D1E2F3A4B5") ==
        "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  CHECK(normalize_pod_uid("0f3c5a8e-1b2d") == "0f3c5a8e-1b2d");
}

}  // namespace
}  // namespace flightrec::container::names
