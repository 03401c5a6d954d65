#!/usr/bin/env python3
"""Offline checks of the deployment files, for tools that cannot run here (no Docker engine,
kubectl, promtool or Grafana): every YAML and JSON file parses, the files agree with each other
(ports, paths, names, volumes), and every setting they give bucketer exists in the README's
configuration reference. `docker-compose config -q` (in .ci/run) checks the compose schema."""
import glob
import json
import re
import sys

import yaml

errors = []


def check(condition, message):
    if not condition:
        errors.append(message)


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


# Settings: the README's table, kafka.* pass-through, and http.port (the HTTP endpoint's port).
readme = open("README.md").read()
settings = set(re.findall(r"^\| `([a-z0-9.]+)` \|", readme, re.M)) | {"http.port"}
check("mongodb.uri" in settings, "README: configuration table not found")


def check_setting(key, where):
    check(key.startswith("kafka.") or key in settings, f"{where}: unknown setting {key}")


def check_env(env, where):
    for name in env:
        if name.startswith("BUCKETER_"):
            check_setting(name[len("BUCKETER_"):].lower().replace("_", "."), f"{where} {name}")


# Every YAML file parses.
yaml_files = ["docker-compose.yml"] + sorted(
    glob.glob("deploy/**/*.yml", recursive=True) + glob.glob("deploy/**/*.yaml", recursive=True))
docs = {}
for path in yaml_files:
    try:
        docs[path] = load_all(path)
    except yaml.YAMLError as e:
        errors.append(f"{path}: {e}")

# Dockerfile: the image the compose file and the manifests rely on.
dockerfile = open("deploy/docker/Dockerfile").read()
for needle in ["FROM maven:3.9-eclipse-temurin-17 AS build", "FROM eclipse-temurin:17-jre",
               "EXPOSE 8080", 'ENTRYPOINT ["java", "-jar", "bucketer.jar"]', 'CMD ["run"]',
               "COPY --from=build /build/target/bucketer-run.jar ./bucketer.jar",
               'VOLUME ["/var/lib/bucketer"]', "BUCKETER_KAFKA_STATE_DIR=/var/lib/bucketer",
               "-XX:MaxRAMPercentage=", "-XX:+ExitOnOutOfMemoryError", "USER 10001"]:
    check(needle in dockerfile, f"Dockerfile: missing {needle!r}")

# Compose: processors, their settings, and what Prometheus scrapes.
compose = docs["docker-compose.yml"][0]
services = compose["services"]
processors = sorted(n for n, s in services.items() if s.get("command") == ["run"])
check(len(processors) >= 2, "compose: fewer than two processors")
instance_ids = []
for name in processors:
    service = services[name]
    check(service["build"]["dockerfile"] == "deploy/docker/Dockerfile", f"compose {name}: build")
    check_env(service["environment"], f"compose {name}")
    check("/health" in " ".join(service["healthcheck"]["test"]), f"compose {name}: healthcheck")
    instance_ids.append(service["environment"].get("BUCKETER_INSTANCE_ID"))
# Static membership: each processor a stable instance id of its own (a shared one fences the other).
check(None not in instance_ids and len(set(instance_ids)) == len(processors),
      f"compose: processors need distinct BUCKETER_INSTANCE_IDs, have {instance_ids}")
check(services["simulator"]["command"][0] == "simulate", "compose: simulator command")
prometheus = docs["deploy/prometheus/prometheus.yml"][0]
job = next(j for j in prometheus["scrape_configs"] if j["job_name"] == "bucketer")
check(job["metrics_path"] == "/metrics", "prometheus: metrics_path")
targets = sorted(t for c in job["static_configs"] for t in c["targets"])
check(targets == [f"{p}:8080" for p in processors], f"prometheus: targets {targets} != processors")

# Grafana: the dashboard parses and uses the provisioned datasource.
datasource_uids = {d["uid"] for d in docs["deploy/grafana/provisioning/datasources/prometheus.yml"][0]["datasources"]}
for path in glob.glob("deploy/grafana/dashboards/*.json"):
    dashboard = json.load(open(path))
    exprs = []
    for panel in dashboard["panels"]:
        check(panel["datasource"]["uid"] in datasource_uids, f"{path}: panel {panel['title']}")
        exprs += [t["expr"] for t in panel["targets"]]
    for metric in ["bucketer_readings_total", "kafka_consumer_fetch_manager_records_lag_max",
                   "bucketer_sink_write_latency_seconds_bucket", "bucketer_dead_letters_total"]:
        check(any(metric in e for e in exprs), f"{path}: no panel shows {metric}")

# Kubernetes: well-formed objects that refer to each other correctly.
k8s = {}
for path in glob.glob("deploy/kubernetes/*.yaml"):
    for doc in docs[path]:
        check({"apiVersion", "kind"} <= doc.keys(), f"{path}: apiVersion/kind missing")
        if doc["kind"] != "Kustomization":
            check(bool(doc.get("metadata", {}).get("name")), f"{path}: {doc['kind']} without a name")
            k8s[(doc["kind"], doc["metadata"]["name"])] = doc
kustomization = docs["deploy/kubernetes/kustomization.yaml"][0]
for resource in kustomization["resources"]:
    check(resource in [p.split("/")[-1] for p in glob.glob("deploy/kubernetes/*.yaml")],
          f"kustomization: {resource} missing")
sts = k8s[("StatefulSet", "bucketer")]
pod = sts["spec"]["template"]["spec"]
container = pod["containers"][0]
check(pod.get("enableServiceLinks") is False, "StatefulSet: enableServiceLinks must be false")
check(sts["spec"]["serviceName"] in {n for k, n in k8s if k == "Service"}, "StatefulSet: serviceName")
check(container["livenessProbe"]["httpGet"]["path"] == "/health", "StatefulSet: liveness path")
check(container["readinessProbe"]["httpGet"]["path"] == "/ready", "StatefulSet: readiness path")
check(container["ports"][0]["containerPort"] == 8080, "StatefulSet: port")
env = {e["name"]: e for e in container["env"]}
check_env(env, "StatefulSet")
instance_id = env.get("BUCKETER_INSTANCE_ID", {}).get("valueFrom", {}).get("fieldRef", {})
check(instance_id.get("fieldPath") == "metadata.name",
      "StatefulSet: BUCKETER_INSTANCE_ID must come from the pod's name (metadata.name)")
state_dir = env["BUCKETER_KAFKA_STATE_DIR"]["value"]
claims = {c["metadata"]["name"] for c in sts["spec"]["volumeClaimTemplates"]}
mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
check(mounts.get(state_dir) in claims, "StatefulSet: kafka.state.dir is not on a volumeClaimTemplate")
check("-XX:MaxRAMPercentage=" in env["JDK_JAVA_OPTIONS"]["value"], "StatefulSet: MaxRAMPercentage")
check(container["resources"]["limits"]["memory"] == container["resources"]["requests"]["memory"],
      "StatefulSet: memory request != limit")
secret = k8s[("Secret", "bucketer-credentials")]
for e in env.values():
    ref = e.get("valueFrom", {}).get("secretKeyRef")
    if ref and ref["name"] == "bucketer-credentials":
        check(ref["key"] in secret["stringData"], f"StatefulSet: Secret key {ref['key']} missing")
check({"BUCKETER_MONGODB_URI", "BUCKETER_KAFKA_SASL_JAAS_CONFIG"} <= env.keys(), "StatefulSet: secrets")
config_map = k8s[("ConfigMap", "bucketer-config")]
check(any(v.get("configMap", {}).get("name") == "bucketer-config" for v in pod["volumes"]),
      "StatefulSet: ConfigMap not mounted")
properties_path = container["args"][container["args"].index("-c") + 1]
properties_file = properties_path.rsplit("/", 1)[1]
check(properties_file in config_map["data"], f"ConfigMap: no {properties_file}")
for line in config_map["data"][properties_file].splitlines():
    line = line.strip()
    if line and not line.startswith("#"):
        check_setting(line.split("=", 1)[0].strip(), "ConfigMap")
pdb = k8s[("PodDisruptionBudget", "bucketer")]
check(pdb["spec"]["maxUnavailable"] == 1, "PodDisruptionBudget: maxUnavailable")
pod_labels = sts["spec"]["template"]["metadata"]["labels"]
check(pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items(), "PodDisruptionBudget: selector")

for e in errors:
    print("check-deploy:", e, file=sys.stderr)
print(f"check-deploy: {len(yaml_files)} YAML files, dashboards, Dockerfile: "
      + ("ok" if not errors else f"{len(errors)} problem(s)"))
sys.exit(1 if errors else 0)
