#include <catch2/catch.hpp>
#include <string>

#include "flightrec/container/names/runtime_state.h"
#include "temp_dir.h"

namespace flightrec::container::names {
namespace {

using flightrec::testing::fixture_path;
using flightrec::testing::read_file;

// Ids of the fixtures (tests/fixtures/container_names): sha256 of a word, so they read as ids.
const std::string kNginx = "5be1ecc7935f1dd85635d4feedaf660594030253cc97c9e9ca3819ffeac36b65";
const std::string kWebSandbox = "9ec75e384b0c69031d9f288a010b65ada11d7886fcf167caf7e397edd8a2cbd6";
const std::string kCriDockerd = "3813e4821a27beacf374135d86240c2a15141430c96389bbe57784e9bdf19703";
const std::string kDb = "7bdc25d1694ef984782a16f6f1710c1c6bc83ba7a131b515baf532bea021d011";
const std::string kDockershim = "10331f84d4810bb44ec103310d55569355f57f8fb9f175d91c35d70b168eee4d";
const std::string kNodeExporter =
    "2303824a4e3dc61fe3195d1a6e978029d4774876cc9aba9d2c60ef85eb96a845";
const std::string kPodmanWeb = "f9d688036191e04636c64024ce221730446495d6568b72e14d6ebc8aa23e434f";

std::string fixture(const std::string& relative) {
  const std::string text = read_file(fixture_path("container_names") / relative);
  REQUIRE_FALSE(text.empty());
  return text;
}

std::string docker_config(const std::string& id) {
  return fixture("docker/var/lib/docker/containers/" + id + "/config.v2.json");
}

TEST_CASE("a cri-dockerd container is named by its io.kubernetes labels", "[names][docker]") {
  const auto names = parse_docker_config(docker_config(kCriDockerd));
  REQUIRE(names);
  CHECK(names->id == kCriDockerd);
  CHECK(names->name ==
        "k8s_app_api-5f6d7c8b9-lm4np_payments_7e8f9a0b-1c2d-4e3f-9a5b-6c7d8e9f0a1b_0");
  CHECK(names->image == "registry.example.com/payments/api:2.14.1");
  CHECK(names->pod_namespace == "payments");
  CHECK(names->pod == "api-5f6d7c8b9-lm4np");
  CHECK(names->pod_uid == "7e8f9a0b-1c2d-4e3f-9a5b-6c7d8e9f0a1b");
  CHECK(names->container == "app");
}

TEST_CASE("a plain Docker container has its name without the '/', and no pod", "[names][docker]") {
  const auto names = parse_docker_config(docker_config(kDb));
  REQUIRE(names);
  CHECK(names->name == "shop-db-1");
  CHECK(names->image == "postgres:16.4");
  CHECK(names->pod.empty());
  CHECK(names->container.empty());
  // The environment (a password here) is read past, never kept.
  CHECK(names->name.find("secret") == std::string::npos);
}

TEST_CASE("a kubelet container without labels is named by its k8s_ name", "[names][docker]") {
  const auto names = parse_docker_config(docker_config(kDockershim));
  REQUIRE(names);
  CHECK(names->id == kDockershim);
  CHECK(names->pod_namespace == "batch");
  CHECK(names->pod == "queue-0");
  CHECK(names->container == "worker");
  CHECK(names->image.starts_with("sha256:"));
}

TEST_CASE("a malformed config.v2.json says which field is wrong", "[names][docker]") {
  CHECK(parse_docker_config("").error().starts_with("not JSON ("));
  CHECK(parse_docker_config("[]").error() == "document: expected an object, got array");
  CHECK(parse_docker_config(R"({"ID":"abc"})").error() ==
        "ID: \"abc\" is not 64 lowercase hex digits");
  const std::string id = R"({"ID":")" + kDb + "\"";
  CHECK(parse_docker_config(id + "}").error() == "Config: missing");
  CHECK(parse_docker_config(id + R"(,"Config":[]})").error() ==
        "Config: expected an object, got array");
  CHECK(parse_docker_config(id + R"(,"Name":7,"Config":{}})").error() ==
        "Name: expected a string, got number");
  CHECK(parse_docker_config(id + R"(,"Config":{"Labels":["a=b"]}})").error() ==
        "Config.Labels: expected an object, got array");
  CHECK(parse_docker_config(id + R"(,"Config":{"Labels":{"io.kubernetes.pod.name":1}}})").error() ==
        "Config.Labels.io.kubernetes.pod.name: expected a string, got number");
  CHECK(parse_docker_config(std::string(40, '[') + std::string(40, ']')).error() ==
        "nested deeper than 32 levels");
  // Null is what Docker writes for "no labels".
  CHECK(parse_docker_config(id + R"(,"Config":{"Image":null,"Labels":null}})"));
}

TEST_CASE("containerd's bundle annotations give the Kubernetes names and the image",
          "[names][containerd]") {
  const std::string tasks = "containerd/run/containerd/io.containerd.runtime.v2.task/k8s.io/";
  const auto nginx = parse_bundle_config(fixture(tasks + kNginx + "/config.json"));
  REQUIRE(nginx);
  CHECK(nginx->id.empty());
  CHECK(nginx->pod_namespace == "shop");
  CHECK(nginx->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(nginx->pod_uid == "0f3c5a8e-1b2d-4e6f-8a9b-c0d1e2f3a4b5");
  CHECK(nginx->container == "nginx");
  CHECK(nginx->image == "docker.io/library/nginx:1.25.3");
  const auto sandbox = parse_bundle_config(fixture(tasks + kWebSandbox + "/config.json"));
  REQUIRE(sandbox);
  CHECK(sandbox->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(sandbox->container.empty());
  CHECK(sandbox->image.empty());

  CHECK(parse_bundle_config(R"({"ociVersion":"1.1.0"})"));
  CHECK(parse_bundle_config(R"({"annotations":[]})").error() ==
        "annotations: expected an object, got array");
  CHECK(parse_bundle_config(R"({"annotations":{"io.kubernetes.cri.image-name":{}}})").error() ==
        "annotations.io.kubernetes.cri.image-name: expected a string, got object");
}

TEST_CASE("CRI-O's containers.json names a container by its k8s_ name and metadata",
          "[names][crio]") {
  const auto list =
      parse_storage_containers(fixture("crio/var/lib/containers/storage/overlay-containers/"
                                       "containers.json"));
  REQUIRE(list);
  REQUIRE(list->size() == 2);
  const ContainerNames& sandbox = (*list)[0];
  CHECK(sandbox.container == "POD");
  CHECK(sandbox.pod == "node-exporter-8jz4t");
  CHECK(sandbox.image == "registry.k8s.io/pause:3.9");
  const ContainerNames& exporter = (*list)[1];
  CHECK(exporter.id == kNodeExporter);
  CHECK(exporter.pod_namespace == "monitoring");
  CHECK(exporter.pod_uid == "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d");
  CHECK(exporter.container == "node-exporter");
  CHECK(exporter.image == "quay.io/prometheus/node-exporter:v1.8.2");
}

TEST_CASE("Podman's containers.json names a container by its first name", "[names][podman]") {
  const auto list =
      parse_storage_containers(fixture("podman/var/lib/containers/storage/overlay-containers/"
                                       "containers.json"));
  REQUIRE(list);
  REQUIRE(list->size() == 2);
  CHECK((*list)[0].id == kPodmanWeb);
  CHECK((*list)[0].name == "web");
  CHECK((*list)[0].image == "docker.io/library/nginx:1.25");
  CHECK((*list)[0].pod.empty());
  CHECK((*list)[1].name == "3f2a1b0c9d8e-infra");
}

TEST_CASE("a malformed containers.json says which entry is wrong", "[names][podman]") {
  CHECK(parse_storage_containers("{}").error() == "document: expected an array, got object");
  CHECK(parse_storage_containers("[1]").error() == "[0]: expected an object, got number");
  CHECK(parse_storage_containers(R"([{"id":"x"}])").error() ==
        "[0].id: \"x\" is not 64 lowercase hex digits");
  const std::string entry = R"({"id":")" + kPodmanWeb + "\"";
  CHECK(parse_storage_containers("[" + entry + R"(,"names":"web"}])").error() ==
        "[0].names: expected an array, got string");
  CHECK(parse_storage_containers("[" + entry + R"(,"names":[1]}])").error() ==
        "[0].names[0]: expected a string, got number");
  CHECK(parse_storage_containers("[" + entry + R"(,"metadata":{}}])").error() ==
        "[0].metadata: expected a string, got object");
  CHECK(parse_storage_containers("[" + entry + R"(,"metadata":"{"}])")
            .error()
            .starts_with("[0].metadata: not JSON ("));
  CHECK(parse_storage_containers("[" + entry + R"(,"metadata":"[]"}])").error() ==
        "[0].metadata: expected a JSON object, got array");
  // An entry with neither names nor metadata is named by its id alone.
  const auto bare = parse_storage_containers("[" + entry + "}]");
  REQUIRE(bare);
  CHECK((*bare)[0].name.empty());
  CHECK(parse_storage_containers("[]"));
}

}  // namespace
}  // namespace flightrec::container::names
