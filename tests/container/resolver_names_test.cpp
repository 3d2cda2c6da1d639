// The resolver over each kind of node: what every source contributes and which it trusts.
#include <catch2/catch.hpp>

#include "flightrec/container/names/name_resolver.h"
#include "names_fixture.h"

namespace flightrec::container::names {
namespace {

using namespace testing;

TEST_CASE("on containerd, the logs name a container and its bundle gives the image",
          "[names][resolver]") {
  NamesFixture node("containerd");
  const auto nginx = node.resolver().resolve(kNginx);
  REQUIRE(nginx);
  CHECK(nginx->id == kNginx);
  CHECK(nginx->pod_namespace == "shop");
  CHECK(nginx->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(nginx->pod_uid == kWebUid);  // from the link's target
  CHECK(nginx->container == "nginx");
  CHECK(nginx->image == "docker.io/library/nginx:1.25.3");
  CHECK(nginx->name.empty());
  CHECK_FALSE(nginx->gone);

  // No bundle (a task that is not running): the logs alone, no image.
  const auto etcd = node.resolver().resolve(kEtcd);
  REQUIRE(etcd);
  CHECK(etcd->pod == "etcd-node-1");
  CHECK(etcd->pod_uid == "9b2c1f0e8d7a6b5c4d3e2f1a0b9c8d7e");
  CHECK(etcd->container == "etcd");
  CHECK(etcd->image.empty());
  CHECK(node.resolver().take_problems().empty());
}

TEST_CASE("a pod's own cgroup is named by the uid in its path", "[names][resolver]") {
  NamesFixture node("containerd");
  // The sandbox: its bundle names the pod; the uid as the systemd driver spells it agrees.
  const auto sandbox = node.resolver().resolve(kWebSandbox, "0f3c5a8e_1b2d_4e6f_8a9b_c0d1e2f3a4b5");
  REQUIRE(sandbox);
  CHECK(sandbox->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(sandbox->pod_uid == kWebUid);
  CHECK(sandbox->container.empty());

  // A container nothing names, in a pod only /var/log/pods still knows.
  const auto report = node.resolver().resolve(kUnknown, "5d6e7f80-9a1b-4c2d-8e3f-a4b5c6d7e8f9");
  REQUIRE(report);
  CHECK(report->id == kUnknown);
  CHECK(report->pod_namespace == "shop");
  CHECK(report->pod == "report-28450110-q7w2z");
  CHECK(report->pod_uid == "5d6e7f80-9a1b-4c2d-8e3f-a4b5c6d7e8f9");
  CHECK(report->container.empty());

  CHECK_FALSE(node.resolver().resolve(kUnknown));
  CHECK_FALSE(node.resolver().resolve(kUnknown, "00000000-0000-0000-0000-000000000000"));
  const NameStats stats = node.resolver().stats();
  CHECK(stats.lookups == 4);
  CHECK(stats.unnamed == 2);
}

TEST_CASE("a caller's pod uid does not rename a container its sources place in another pod",
          "[names][resolver]") {
  NamesFixture node("containerd");
  node.settings.containerd_tasks.clear();
  const std::string link = "var/log/containers/web-7d9f8b6c5-x2kqp_shop_nginx-" + kNginx + ".log";
  node.tree.remove(link).file(link, "");  // a file where a link was: no target to read
  const auto nginx = node.resolver().resolve(kNginx, "5d6e7f80-9a1b-4c2d-8e3f-a4b5c6d7e8f9");
  REQUIRE(nginx);
  CHECK(nginx->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(nginx->pod_uid == kWebUid);
}

TEST_CASE("without a link's target, the pod's uid comes from its one log directory",
          "[names][resolver]") {
  NamesFixture node("containerd");
  const std::string link = "var/log/containers/web-7d9f8b6c5-x2kqp_shop_nginx-" + kNginx + ".log";
  node.tree.remove(link).file(link, "");  // a file where a link was: no target to read
  REQUIRE(node.resolver().resolve(kNginx)->pod_uid == kWebUid);

  // Made again under the same name with a new uid while the old one's logs remain: which pod
  // the container is in cannot be told from the logs, so no uid (the bundle still gives it).
  NamesFixture again("containerd");
  again.settings.containerd_tasks.clear();
  again.tree.remove(link).file(link, "");
  again.tree.dir("var/log/pods/shop_web-7d9f8b6c5-x2kqp_11111111-2222-4333-8444-555555555555");
  const auto ambiguous = again.resolver().resolve(kNginx);
  REQUIRE(ambiguous);
  CHECK(ambiguous->pod == "web-7d9f8b6c5-x2kqp");
  CHECK(ambiguous->pod_uid.empty());
}

TEST_CASE("on CRI-O, containers.json adds the image and runtime name to the logs' names",
          "[names][resolver]") {
  NamesFixture node("crio");
  const auto exporter = node.resolver().resolve(kNodeExporter);
  REQUIRE(exporter);
  CHECK(exporter->pod_namespace == "monitoring");
  CHECK(exporter->pod == "node-exporter-8jz4t");
  CHECK(exporter->pod_uid == "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d");
  CHECK(exporter->container == "node-exporter");
  CHECK(exporter->image == "quay.io/prometheus/node-exporter:v1.8.2");
  CHECK(exporter->name ==
        "k8s_node-exporter_node-exporter-8jz4t_monitoring_a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d_1");
  const auto sandbox = node.resolver().resolve(kNodeExporterSandbox);
  REQUIRE(sandbox);
  CHECK(sandbox->container == "POD");
  CHECK(sandbox->image == "registry.k8s.io/pause:3.9");
}

TEST_CASE("on Docker, config.v2.json names kubelet-made and plain containers",
          "[names][resolver]") {
  NamesFixture node("docker");
  const auto app = node.resolver().resolve(kCriDockerd);
  REQUIRE(app);
  CHECK(app->pod_namespace == "payments");
  CHECK(app->container == "app");
  CHECK(app->image == "registry.example.com/payments/api:2.14.1");
  const auto db = node.resolver().resolve(kDb);
  REQUIRE(db);
  CHECK(db->name == "shop-db-1");
  CHECK(db->image == "postgres:16.4");
  CHECK(db->pod.empty());
}

TEST_CASE("on Podman, both lists of the store name containers", "[names][resolver]") {
  NamesFixture node("podman");
  const auto web = node.resolver().resolve(kPodmanWeb);
  REQUIRE(web);
  CHECK(web->name == "web");
  CHECK(web->image == "docker.io/library/nginx:1.25");
  // `podman run --rm`: in volatile-containers.json.
  const auto job = node.resolver().resolve(kPodmanTmp);
  REQUIRE(job);
  CHECK(job->name == "tmp-job");
  CHECK(job->image == "registry.fedoraproject.org/fedora:41");
}

TEST_CASE("everything is read under the root", "[names][resolver]") {
  NameSettings settings;
  settings.root = "/host";
  CHECK(under_root(settings, "/var/log/pods") == "/host/var/log/pods");
  CHECK(under_root(settings, "var/log/pods") == "/host/var/log/pods");
  settings.root = "/";
  CHECK(under_root(settings, "/var/log/pods") == "/var/log/pods");

  // A source turned off is not read.
  NamesFixture node("containerd");
  node.settings.container_logs.clear();
  node.settings.containerd_tasks.clear();
  CHECK_FALSE(node.resolver().resolve(kNginx));
}

}  // namespace
}  // namespace flightrec::container::names
