#!/usr/bin/env python3
"""Offline checks of the deployment files, for tools that cannot run here (no Docker engine,
kubectl, promtool or Grafana): every YAML and JSON file parses, the files agree with each other
(ports, paths, names, volumes, schemes), every setting they give bucketer exists in the
configuration reference (docs/configuration.md), the Kubernetes pods meet the restricted Pod Security Standard, a
NetworkPolicy fences them, secrets reach them as files, and the optional autoscaler (KEDA) watches
their own consumer group, within the partitions, slowly. `docker-compose config -q` (in
.ci/run) checks the compose schema."""
import glob
import json
import os
import posixpath
import re
import sys
from urllib.parse import parse_qs, urlsplit

import yaml

errors = []


def check(condition, message):
    if not condition:
        errors.append(message)


def check_in(condition, message):
    """check, returning the condition: for checks that later ones depend on."""
    check(condition, message)
    return condition


def load_all(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d is not None]


# Settings: the configuration reference's table, kafka.* pass-through, and http.port (the HTTP endpoint's port).
readme = open("docs/configuration.md").read()
settings = set(re.findall(r"^\| `([a-z0-9.]+)` \|", readme, re.M)) | {"http.port"}
check("mongodb.uri" in settings, "docs/configuration.md: configuration table not found")
check({"http.tls.cert.file", "http.auth.mode", "http.metrics.access"} <= settings,
      "docs/configuration.md: the HTTP security settings are not in the configuration table")
# Environment variables named BUCKETER_* that are not settings (ConfigSources.NOT_SETTINGS).
NOT_SETTINGS = {"BUCKETER_LOG_FORMAT"}
# Settings that hold a secret: in the manifests only as a reference to a file, never a value.
SECRET_SETTINGS = {"mongodb.uri", "kafka.sasl.jaas.config", "schema.registry.basic.auth.user.info"}
# Settings that name a file the process reads.
FILE_SETTINGS = {"http.tls.cert.file", "http.tls.key.file", "http.tls.client.ca.file",
                 "http.tls.peer.ca.file", "http.auth.users.file", "http.auth.tokens.file",
                 "http.auth.peer.token.file", "kafka.ssl.truststore.location",
                 "kafka.ssl.keystore.location"}
# ${dir:/path:key} and ${file:/path:key} (Kafka's config providers); ${env:NAME} names no file.
FILE_REFERENCE = re.compile(r"\$\{(dir|file):([^}:]+):([^}]+)\}")


def is_secret(key):
    return key in SECRET_SETTINGS or key.endswith(".password")


def check_setting(key, where):
    check(key.startswith("kafka.") or key in settings, f"{where}: unknown setting {key}")


def setting_of(variable):
    return variable[len("BUCKETER_"):].lower().replace("_", ".")


def check_env(env, where):
    for name in env:
        if name.startswith("BUCKETER_") and name not in NOT_SETTINGS:
            check_setting(setting_of(name), f"{where} {name}")


def check_commented_settings(text, pattern, where):
    """Settings in commented-out lines (a variant to switch on) must exist as well."""
    for line in text.splitlines():
        match = re.match(pattern, line)
        if match:
            name = match.group(1)
            if name.startswith("BUCKETER_"):
                if name not in NOT_SETTINGS:
                    check_setting(setting_of(name), f"{where} (commented) {name}")
            else:
                check_setting(name, f"{where} (commented)")


def properties(text):
    result = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            result[key.strip()] = value.strip()
    return result


def tls_on(effective):
    return bool(effective.get("http.tls.cert.file"))


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
               "-XX:MaxRAMPercentage=", "-XX:+ExitOnOutOfMemoryError"]:
    check(needle in dockerfile, f"Dockerfile: missing {needle!r}")
# The last USER of the runtime stage: numeric and not root, so that runAsNonRoot can verify it.
users = re.findall(r"^USER\s+(\S+)", dockerfile, re.M)
check(bool(users) and re.fullmatch(r"[1-9]\d*(:\d+)?", users[-1]) is not None,
      f"Dockerfile: the last USER must be a numeric non-root uid, is {users[-1:]}")

# --- Compose ----------------------------------------------------------------------------------
compose_text = open("docker-compose.yml").read()
compose = docs["docker-compose.yml"][0]
services = compose["services"]
processors = sorted(n for n, s in services.items() if s.get("command") == ["run"])
check(len(processors) >= 2, "compose: fewer than two processors")
check_commented_settings(compose_text, r"^\s*#\s*(BUCKETER_[A-Z0-9_]+)\s*:", "compose")
instance_ids = []
compose_effective = {}
for name in processors:
    service = services[name]
    environment = service["environment"]
    check(service["build"]["dockerfile"] == "deploy/docker/Dockerfile", f"compose {name}: build")
    check_env(environment, f"compose {name}")
    effective = {setting_of(k): str(v) for k, v in environment.items() if k.startswith("BUCKETER_")}
    compose_effective[name] = effective
    health = " ".join(service["healthcheck"]["test"])
    check("/health" in health, f"compose {name}: healthcheck")
    scheme = "https" if tls_on(effective) else "http"
    check(f"{scheme}://localhost:" in health,
          f"compose {name}: the healthcheck must use {scheme}:// (http.tls.cert.file is "
          + ("set)" if scheme == "https" else "not set)"))
    # Every other caller comes from another container: the published port, the other processor
    # forwarding a query, Prometheus. The default (loopback) would refuse them all.
    mode = effective.get("http.auth.mode", "loopback")
    check(mode != "loopback" or "http.auth.peer.token.file" in effective,
          f"compose {name}: http.auth.mode=loopback refuses the other processor and the browser")
    check(mode != "open" or "local demo" in compose_text,
          f"compose {name}: http.auth.mode=open without a comment saying the stack is a local demo")
    instance_ids.append(environment.get("BUCKETER_INSTANCE_ID"))
# Static membership: each processor a stable instance id of its own (a shared one fences the other).
check(None not in instance_ids and len(set(instance_ids)) == len(processors),
      f"compose: processors need distinct BUCKETER_INSTANCE_IDs, have {instance_ids}")
for name, service in services.items():
    for port in service.get("ports", []):
        check(str(port).startswith("127.0.0.1:"),
              f"compose {name}: port {port} published beyond the host (use 127.0.0.1:...)")
check(services["simulator"]["command"][0] == "simulate", "compose: simulator command")
prometheus = docs["deploy/prometheus/prometheus.yml"][0]
job = next(j for j in prometheus["scrape_configs"] if j["job_name"] == "bucketer")
check(job["metrics_path"] == "/metrics", "prometheus: metrics_path")
targets = sorted(t for c in job["static_configs"] for t in c["targets"])
check(targets == [f"{p}:8080" for p in processors], f"prometheus: targets {targets} != processors")
# Alerting rules: alerts.yml is a rule file of prometheus.yml, and each rule file is in
# deploy/prometheus and mounted beside prometheus.yml in the Prometheus container, where the
# relative name resolves.
rule_files = prometheus.get("rule_files") or []
check("alerts.yml" in rule_files, "prometheus: alerts.yml is not among its rule_files")
prometheus_volumes = [str(v) for v in services["prometheus"].get("volumes", [])]
for rule_file in rule_files:
    check(glob.glob(f"deploy/prometheus/{rule_file}") != [],
          f"prometheus: rule file {rule_file} is not in deploy/prometheus")
    check(f"./deploy/prometheus/{rule_file}:/etc/prometheus/{rule_file}:ro" in prometheus_volumes,
          f"compose prometheus: rule file {rule_file} is not mounted beside prometheus.yml")
for name in processors:
    effective = compose_effective[name]
    # Prometheus scrapes from its own container, without credentials.
    check(effective.get("http.metrics.access") == "open",
          f"compose {name}: Prometheus scrapes it: set BUCKETER_HTTP_METRICS_ACCESS=open")
    check(job.get("scheme", "http") == ("https" if tls_on(effective) else "http"),
          f"prometheus: scheme {job.get('scheme', 'http')} does not match {name}'s http.tls.*")

# --- Grafana ----------------------------------------------------------------------------------
# Data sources: every provisioned one, by uid. One on a processor's API (the Infinity plugin's, on
# bucketer's query API) sends a bearer token, unless that processor lets anyone in; the token
# comes from a file, never from the provisioning file itself; it speaks the processor's scheme and
# sends the token to that processor only.
INFINITY = "yesoreyeram-infinity-datasource"
FILE_EXPANSION = re.compile(r"^\$__file\{([^}]+)\}$")
grafana_service = services["grafana"]
grafana_mounts = {str(v).split(":")[1] for v in grafana_service.get("volumes", [])
                  if str(v).startswith((".", "/"))}
check(any(str(p).startswith(f"{INFINITY}@") for p in
          str(grafana_service["environment"].get("GF_PLUGINS_PREINSTALL", "")).split(",")),
      f"compose grafana: GF_PLUGINS_PREINSTALL does not install {INFINITY} at a pinned version")
datasources = []
for path in sorted(glob.glob("deploy/grafana/provisioning/datasources/*.yml")):
    for document in docs[path]:
        datasources += [dict(d, _path=path) for d in document.get("datasources", [])]
datasource_types = {d["uid"]: d["type"] for d in datasources}
check(len(datasource_types) == len(datasources), "grafana: two data sources share a uid")


def bearer_token(datasource):
    """The secureJsonData value sent as 'Authorization: Bearer ...', or None: the Infinity
    plugin's bearer token method, or a custom header (httpHeaderNameN/httpHeaderValueN)."""
    json_data = datasource.get("jsonData") or {}
    secure = datasource.get("secureJsonData") or {}
    if json_data.get("auth_method") == "bearerToken" and secure.get("bearerToken"):
        return str(secure["bearerToken"])
    for key, name in json_data.items():
        match = re.fullmatch(r"httpHeaderName(\d+)", key)
        value = str(secure.get(f"httpHeaderValue{match.group(1)}", "")) if match else ""
        if match and str(name).lower() == "authorization" and value.startswith("Bearer "):
            return value[len("Bearer "):]
    return None


for datasource in datasources:
    where = f"grafana: datasource {datasource['name']}"
    secure = datasource.get("secureJsonData") or {}
    for key, value in secure.items():
        reference = FILE_EXPANSION.match(str(value).removeprefix("Bearer "))
        if check_in(reference is not None, f"{where}: secureJsonData.{key} holds a value; read it"
                    " from a mounted file with $__file{...}"):
            check(reference.group(1) in grafana_mounts,
                  f"{where}: {reference.group(1)} is not mounted in the grafana container")
    url = urlsplit(datasource.get("url", ""))
    if url.hostname not in processors:
        continue
    effective = compose_effective[url.hostname]
    open_mode = effective.get("http.auth.mode") == "open"
    token = bearer_token(datasource)
    check(token is not None or open_mode,
          f"{where} calls {url.hostname} without a bearer token (its http.auth.mode is not open)")
    if token is not None and not open_mode:
        check("http.auth.tokens.file" in effective,
              f"{where} sends a token, but {url.hostname} has no http.auth.tokens.file")
    scheme = "https" if tls_on(effective) else "http"
    check(url.scheme == scheme, f"{where}: {url.scheme}:// to {url.hostname}, whose listener speaks"
          f" {scheme} (http.tls.cert.file " + ("set)" if tls_on(effective) else "not set)"))
    json_data = datasource.get("jsonData") or {}
    if datasource["type"] == INFINITY:
        origin = f"{url.scheme}://{url.netloc}"
        check(json_data.get("allowedHosts") == [origin],
              f"{where}: allowedHosts must be [{origin}] only, is {json_data.get('allowedHosts')}")
    if scheme == "https":
        check(json_data.get("tlsAuthWithCACert") is True and "tlsCACert" in secure,
              f"{where}: HTTPS without the processors' CA (tlsAuthWithCACert, tlsCACert)")

# What the query API documents (docs/operations.md's endpoint table, docs/querying.md's example
# answer): the parameters each endpoint takes, and the fields of a chart's answer.
endpoints = {}
endpoint_rows = {}
for path, rest, what in re.findall(r"^\| `(/api/[^?`]+)\?((?:[^|\\]|\\\|)*)\|(.*)$",
                                   open("docs/operations.md").read(), re.M):
    endpoints[path] = set(re.findall(r"([A-Za-z_]+)=", rest))
    endpoint_rows[path] = what
BUCKETS = "/api/v1/series/{sensor_id}/buckets"
check({"metric", "from", "to", "granularity", "maxDataPoints", "interval_ms", "fill"}
      <= endpoints.get(BUCKETS, set()),
      f"docs/operations.md: the {BUCKETS} row does not name its parameters")
querying = open("docs/querying.md").read()
example = re.search(r"```\nGET /api/v1/series/[^/]+/buckets\?[^\n]*\n```\s*```json\n(.*?)```",
                    querying, re.S)
answer = json.loads(example.group(1)) if example else {}
check("buckets" in answer, "docs/querying.md: no example answer of /buckets (```json after the GET)")
# A point's fields: those of the example answer (ChartPointsApiTest's, which may leave out fields
# added later), and those the endpoint table's /buckets row names.
point_fields = {key for point in answer.get("buckets", []) for key in point}
point_fields |= (set(re.findall(r"`([a-z_]+)`", endpoint_rows.get(BUCKETS, "")))
                 - endpoints.get(BUCKETS, set()) - set(answer))  # the row names these too


def endpoint_of(path):
    for template in endpoints:
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            return template
    return None


def check_infinity_query(query, where):
    url = urlsplit(query.get("url", ""))
    if not check_in(not url.scheme and not url.netloc, f"{where}: URL {query.get('url')} names a"
                    " host; give the path only (the data source's url is the processor)"):
        return
    template = endpoint_of(url.path)
    if not check_in(template is not None, f"{where}: {url.path} is not a documented endpoint"):
        return
    parameters = parse_qs(url.query, keep_blank_values=True)
    for name in parameters:
        check(name in endpoints[template], f"{where}: unknown parameter {name} of {template}"
              f" (documented: {', '.join(sorted(endpoints[template]))})")
    for name in ("from", "to"):
        for value in parameters.get(name, []):
            check(re.fullmatch(r"\$\{__" + name + r":date(:iso)?\}", value) is not None,
                  f"{where}: {name}={value}: the API takes ISO-8601 instants (${{__{name}:date:iso}})")
    if template == BUCKETS:
        check(query.get("root_selector") in answer,
              f"{where}: root selector {query.get('root_selector')!r} is not in /buckets' answer")
        for column in query.get("columns", []):
            field = column["selector"].split(".")[0]
            check(field in point_fields, f"{where}: column {column['selector']} is not a field of"
                  " a /buckets point (docs/querying.md)")


PROMETHEUS_DASHBOARD = "deploy/grafana/dashboards/bucketer.json"
for path in sorted(glob.glob("deploy/grafana/dashboards/*.json")):
    dashboard = json.load(open(path))
    exprs = []
    for variable in dashboard.get("templating", {}).get("list", []):
        uid = (variable.get("datasource") or {}).get("uid")
        if variable.get("type") == "query":
            check(uid in datasource_types, f"{path}: variable {variable['name']}: data source"
                  f" {uid} is not provisioned")
        if datasource_types.get(uid) == INFINITY:
            check_infinity_query(variable["query"]["infinityQuery"],
                                 f"{path}: variable {variable['name']}")
    for panel in dashboard["panels"]:
        uid = panel["datasource"]["uid"]
        check(uid in datasource_types,
              f"{path}: panel {panel['title']}: data source {uid} is not provisioned")
        for target in panel["targets"]:
            target_uid = (target.get("datasource") or panel["datasource"])["uid"]
            check(target_uid in datasource_types, f"{path}: panel {panel['title']}: target"
                  f" {target['refId']}: data source {target_uid} is not provisioned")
            if datasource_types.get(target_uid) == INFINITY:
                check_infinity_query(target, f"{path}: panel {panel['title']}")
            exprs.append(target.get("expr", ""))
    if path == PROMETHEUS_DASHBOARD:
        for metric in ["bucketer_readings_total", "kafka_consumer_fetch_manager_records_lag_max",
                       "bucketer_sink_write_latency_seconds_bucket", "bucketer_dead_letters_total"]:
            check(any(metric in e for e in exprs), f"{path}: no panel shows {metric}")
check(PROMETHEUS_DASHBOARD in glob.glob("deploy/grafana/dashboards/*.json"),
      f"grafana: {PROMETHEUS_DASHBOARD} is missing")

# --- Kubernetes: well-formed objects that refer to each other correctly -----------------------
k8s = {}
k8s_files = sorted(glob.glob("deploy/kubernetes/*.yaml"))
for path in k8s_files:
    for doc in docs[path]:
        check({"apiVersion", "kind"} <= doc.keys(), f"{path}: apiVersion/kind missing")
        if doc["kind"] != "Kustomization":
            check(bool(doc.get("metadata", {}).get("name")), f"{path}: {doc['kind']} without a name")
            k8s[(doc["kind"], doc["metadata"]["name"])] = doc
kustomization = docs["deploy/kubernetes/kustomization.yaml"][0]
for resource in kustomization["resources"]:
    check(resource in [p.split("/")[-1] for p in k8s_files], f"kustomization: {resource} missing")
for path in k8s_files:
    name = path.split("/")[-1]
    if name != "kustomization.yaml" and docs[path]:
        check(name in kustomization["resources"], f"kustomization: {name} is not a resource")
# No Secret with values in Git: secret.yaml says how to create each one, and holds no object.
check(not any(kind == "Secret" for kind, _ in k8s), "kubernetes: a Secret with values in Git")
secret_instructions = open("deploy/kubernetes/secret.yaml").read()

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
config_map = k8s[("ConfigMap", "bucketer-config")]
check(any(v.get("configMap", {}).get("name") == "bucketer-config" for v in pod["volumes"]),
      "StatefulSet: ConfigMap not mounted")
properties_path = container["args"][container["args"].index("-c") + 1]
properties_dir, properties_file = properties_path.rsplit("/", 1)
check(properties_file in config_map["data"], f"ConfigMap: no {properties_file}")
check_commented_settings(config_map["data"][properties_file], r"^\s*#\s*([a-z][a-z0-9.]*)=", "ConfigMap")
config = properties(config_map["data"][properties_file])
for key in config:
    check_setting(key, "ConfigMap")

# What the process sees: the file, then BUCKETER_* variables with a value (they take precedence).
effective = dict(config)
for name, e in env.items():
    if name.startswith("BUCKETER_") and "value" in e:
        effective[setting_of(name)] = e["value"]

# Secrets as files: no variable from a Secret, and every secret setting a reference to a file.
for name, e in env.items():
    check("secretKeyRef" not in e.get("valueFrom", {}),
          f"StatefulSet: {name} comes from a Secret as a variable; mount the Secret instead")
check(not any("secretRef" in s for s in container.get("envFrom", [])),
      "StatefulSet: envFrom a Secret; mount the Secret instead")
for key in ("mongodb.uri", "kafka.sasl.jaas.config"):
    check(key in effective, f"StatefulSet: {key} is not set")
for key, value in effective.items():
    if is_secret(key):
        check(re.fullmatch(r"\$\{(dir|file|env):[^}]+\}", value) is not None,
              f"ConfigMap: {key} holds a value; name a file of a mounted Secret with ${{dir:...}}")
        check(not value.startswith("${env:"), f"ConfigMap: {key} from a variable; use ${{dir:...}}")

# Every file a setting names is on a volume of the container that holds it.
volumes = {v["name"]: v for v in pod["volumes"]}


def check_file(path, where):
    directory, name = posixpath.split(path)
    volume = volumes.get(mounts.get(directory))
    if not check_in(volume is not None, f"{where}: {directory} is not a mounted volume"):
        return
    source = volume.get("secret") or volume.get("configMap") or {}
    items = source.get("items")
    if items is not None:
        check(name in {i["path"] for i in items}, f"{where}: {name} is not an item of {directory}")
    if "secret" in volume:
        secret_name = volume["secret"]["secretName"]
        check(secret_name in secret_instructions,
              f"{where}: secret.yaml does not say how to create the Secret {secret_name}")


for key, value in effective.items():
    for provider, path, reference_key in FILE_REFERENCE.findall(value):
        check_file(posixpath.join(path, reference_key) if provider == "dir" else path,
                   f"ConfigMap {key} ${{{provider}:...}}")
    if key in FILE_SETTINGS and value:
        check_file(value, f"ConfigMap {key}")
check_file(properties_path, "StatefulSet -c")

# HTTP: probes in the listener's scheme; Prometheus scrapes, so /metrics is open to it.
scheme = "HTTPS" if tls_on(effective) else "HTTP"
for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
    if probe in container:
        actual = container[probe]["httpGet"].get("scheme", "HTTP")
        check(actual == scheme, f"StatefulSet: {probe} scheme {actual}, the listener speaks {scheme}"
              " (http.tls.cert.file " + ("set)" if tls_on(effective) else "not set)"))
annotations = sts["spec"]["template"]["metadata"].get("annotations", {})
if annotations.get("prometheus.io/scrape") == "true":
    check(effective.get("http.metrics.access") == "open",
          "StatefulSet: Prometheus scrapes it: set http.metrics.access=open (behind the NetworkPolicy)")
    check(annotations.get("prometheus.io/scheme", "http") == scheme.lower(),
          "StatefulSet: prometheus.io/scheme does not match http.tls.*")
if effective.get("http.auth.mode", "loopback") == "credentials":
    check(tls_on(effective), "ConfigMap: http.auth.mode=credentials without http.tls.*: passwords in clear")

# The restricted Pod Security Standard, for every container of every workload, init and ephemeral
# ones included (https://kubernetes.io/docs/concepts/security/pod-security-standards/).
RESTRICTED_VOLUMES = {"configMap", "csi", "downwardAPI", "emptyDir", "ephemeral",
                      "persistentVolumeClaim", "projected", "secret", "name"}


def pod_specs():
    for (kind, name), doc in k8s.items():
        spec = doc.get("spec", {})
        if kind == "Pod":
            yield f"{kind} {name}", spec
        elif kind == "CronJob":
            yield f"{kind} {name}", spec["jobTemplate"]["spec"]["template"]["spec"]
        elif "template" in spec:
            yield f"{kind} {name}", spec["template"]["spec"]


workloads = 0
for where, spec in pod_specs():
    workloads += 1
    pod_context = spec.get("securityContext", {})
    for flag in ("hostNetwork", "hostPID", "hostIPC"):
        check(not spec.get(flag), f"{where}: {flag}")
    for volume in spec.get("volumes", []):
        check(set(volume) <= RESTRICTED_VOLUMES, f"{where}: volume {volume['name']} of a type"
              " the restricted standard forbids")
    for group in ("initContainers", "containers", "ephemeralContainers"):
        for c in spec.get(group, []):
            at = f"{where} {group} {c['name']}"
            context = c.get("securityContext", {})

            def effective_field(field):
                return context.get(field, pod_context.get(field))

            check(effective_field("runAsNonRoot") is True, f"{at}: runAsNonRoot must be true")
            check(effective_field("runAsUser") != 0, f"{at}: runAsUser 0")
            check(context.get("allowPrivilegeEscalation") is False,
                  f"{at}: allowPrivilegeEscalation must be false")
            check(not context.get("privileged"), f"{at}: privileged")
            check(context.get("readOnlyRootFilesystem") is True,
                  f"{at}: readOnlyRootFilesystem must be true")
            capabilities = context.get("capabilities", {})
            check("ALL" in capabilities.get("drop", []), f"{at}: capabilities must drop ALL")
            check(set(capabilities.get("add", [])) <= {"NET_BIND_SERVICE"},
                  f"{at}: capabilities added: {capabilities.get('add')}")
            seccomp = (effective_field("seccompProfile") or {}).get("type")
            check(seccomp in ("RuntimeDefault", "Localhost"),
                  f"{at}: seccompProfile must be RuntimeDefault, is {seccomp}")
            # A read-only root needs somewhere to write: /tmp on an emptyDir (java.io.tmpdir).
            container_mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
            tmp = next((v for v in spec.get("volumes", [])
                        if v["name"] == container_mounts.get("/tmp")), {})
            check("emptyDir" in tmp, f"{at}: /tmp is not an emptyDir (readOnlyRootFilesystem)")
check(workloads > 0, "kubernetes: no workload found")
# The namespace enforces the standard: its manifest carries the label, or the instructions say so.
namespaces = [doc for (kind, _), doc in k8s.items() if kind == "Namespace"]
for namespace in namespaces:
    labels = namespace["metadata"].get("labels", {})
    check(labels.get("pod-security.kubernetes.io/enforce") == "restricted",
          f"Namespace {namespace['metadata']['name']}: pod-security.kubernetes.io/enforce=restricted")
if not namespaces:
    check(re.search(r"kubectl label namespace \S+ pod-security\.kubernetes\.io/enforce=restricted",
                    open("deploy/README.md").read()) is not None,
          "deploy/README.md: no instruction to label the namespace with the restricted standard")

# The NetworkPolicy: it selects the pods, lets into the HTTP port only the listed peers, and out
# only to DNS, the other processors, Kafka, the registry and MongoDB, each rule with its ports.
pod_labels = sts["spec"]["template"]["metadata"]["labels"]
http_ports = {p["containerPort"] for p in container["ports"]} | {p["name"] for p in container["ports"]}
policies = [doc for (kind, _), doc in k8s.items() if kind == "NetworkPolicy"
            and doc["spec"]["podSelector"].get("matchLabels", {}).items() <= pod_labels.items()]
check(len(policies) == 1, f"kubernetes: {len(policies)} NetworkPolicies select the processors, want 1")


def selects_processors(peer):
    labels = peer.get("podSelector", {}).get("matchLabels")
    return (labels is not None and labels.items() <= pod_labels.items()
            and "namespaceSelector" not in peer and "ipBlock" not in peer)


def allowed_ports(rules, peer_test=lambda peer: True):
    return {(p.get("protocol", "TCP"), p["port"]) for r in rules
            if any(peer_test(peer) for peer in r.get(peers_key(r), [])) for p in r["ports"]}


def peers_key(rule):
    return "from" if "from" in rule else "to"


for policy in policies:
    spec = policy["spec"]
    check(set(spec.get("policyTypes", [])) == {"Ingress", "Egress"},
          "NetworkPolicy: policyTypes must be Ingress and Egress")
    ingress, egress = spec.get("ingress", []), spec.get("egress", [])
    for kind, rules in (("ingress", ingress), ("egress", egress)):
        for i, rule in enumerate(rules):
            check(bool(rule.get("ports")), f"NetworkPolicy: {kind} rule {i} open on every port")
            check(bool(rule.get("from" if kind == "ingress" else "to")),
                  f"NetworkPolicy: {kind} rule {i} open to every peer")
            for peer in rule.get("from" if kind == "ingress" else "to", []):
                check(peer.get("ipBlock", {}).get("cidr") not in ("0.0.0.0/0", "::/0"),
                      f"NetworkPolicy: {kind} rule {i} open to any address")
    for rule in ingress:
        for port in rule.get("ports", []):
            check(port["port"] in http_ports, f"NetworkPolicy: ingress on port {port['port']},"
                  " not the HTTP port")
    check(any(selects_processors(peer) for r in ingress for peer in r.get("from", [])),
          "NetworkPolicy: the processors cannot reach each other (forwarded queries)")
    peers = json.dumps(ingress)
    check("prometheus" in peers, "NetworkPolicy: Prometheus cannot scrape /metrics")
    out = allowed_ports(egress)
    check({("UDP", 53), ("TCP", 53)} <= out, "NetworkPolicy: no DNS")
    check(allowed_ports(egress, selects_processors) & {("TCP", p) for p in http_ports},
          "NetworkPolicy: the processors cannot forward queries to each other")
    for server in effective["bootstrap.servers"].split(","):
        port = int(server.rsplit(":", 1)[1])
        check(("TCP", port) in out, f"NetworkPolicy: no egress to Kafka's port {port}")
    registry = urlsplit(effective["schema.registry.url"])
    port = registry.port or (443 if registry.scheme == "https" else 80)
    check(("TCP", port) in out, f"NetworkPolicy: no egress to the registry's port {port}")
    check(("TCP", 27017) in out, "NetworkPolicy: no egress to MongoDB's port 27017")

pdb = k8s[("PodDisruptionBudget", "bucketer")]
check(pdb["spec"].get("maxUnavailable") == 1, "PodDisruptionBudget: maxUnavailable")
check(pdb["spec"]["selector"]["matchLabels"].items() <= pod_labels.items(), "PodDisruptionBudget: selector")

# --- Kubernetes: the autoscaler, an overlay of its own ----------------------------------------
# Applied instead of the base where KEDA is installed: the base holds none of KEDA's objects, which
# a cluster without KEDA's CRDs refuses. Its files are in a directory beside the base's (kustomize
# refuses a base whose directory contains the overlay's), outside k8s_files: loaded here from the
# overlay's kustomization.
KEDA_KINDS = {"ScaledObject", "ScaledJob", "TriggerAuthentication", "ClusterTriggerAuthentication"}
BASE = "deploy/kubernetes"
OVERLAY = "deploy/kubernetes-autoscaling"
OVERLAY_KINDS = {"ScaledObject", "TriggerAuthentication"}
# Kafka's sasl.mechanism as the KEDA Kafka scaler's sasl names it.
KEDA_SASL = {"PLAIN": "plaintext", "SCRAM-SHA-256": "scram_sha256", "SCRAM-SHA-512": "scram_sha512",
             "GSSAPI": "gssapi", "OAUTHBEARER": "oauthbearer"}
# The Kafka scaler's parameters that hold credentials: from a Secret through the
# TriggerAuthentication, never in the trigger's metadata.
KEDA_CREDENTIALS = {"username", "password", "ca", "cert", "key", "keyPassword", "keytab",
                    "awsAccessKeyID", "awsSecretAccessKey"}
# A step of the autoscaler is a rebalance; a new pod restores its tasks' state first, which takes
# minutes with the example's state: a scale-up step no more often than that.
RESTORE_SECONDS = 180
check(not any(kind in KEDA_KINDS for kind, _ in k8s)
      and not any(posixpath.normpath(posixpath.join(BASE, r)).startswith(OVERLAY + "/")
                  for r in kustomization["resources"]),
      "kustomization: the base holds KEDA's objects; a cluster without KEDA's CRDs could not apply"
      " it (they belong in the autoscaling overlay)")
overlay = {}
overlay_path = f"{OVERLAY}/kustomization.yaml"
if check_in(overlay_path in docs, f"{OVERLAY}: no kustomization.yaml (the autoscaling overlay)"):
    overlay_kustomization = docs[overlay_path][0]
    overlay_resources = overlay_kustomization.get("resources", [])
    resolved = {r: posixpath.normpath(posixpath.join(OVERLAY, r)) for r in overlay_resources}
    check(BASE in resolved.values(), "autoscaling overlay: its kustomization does not list the base"
          f" ({posixpath.relpath(BASE, OVERLAY)})")
    for resource, path in resolved.items():
        if (OVERLAY + "/").startswith(path + "/"):
            check(False, f"autoscaling overlay: resource {resource}: its directory contains the"
                  " overlay's: kustomize refuses it (cycle detected)")
        elif path == BASE:
            check(os.path.isfile(f"{path}/kustomization.yaml"), "autoscaling overlay: no base")
        elif check_in(path in docs, f"autoscaling overlay: {resource} missing"):
            for doc in docs[path]:
                kind, name = doc.get("kind"), doc.get("metadata", {}).get("name")
                check(kind in OVERLAY_KINDS, f"autoscaling overlay: {kind} {name}: only KEDA's"
                      " ScaledObject and TriggerAuthentication belong here (no Secret with values;"
                      " the NetworkPolicy is the base's: KEDA connects to Kafka, not to the pods)")
                overlay[(kind, name)] = doc
    for path in sorted(glob.glob(f"{OVERLAY}/*.yaml")):
        name = path.split("/")[-1]
        if name != "kustomization.yaml" and docs.get(path):
            check(name in overlay_resources, f"autoscaling overlay: {name} is not a resource")
    # The HPA owns the replica count: with the base's replicas, each apply would undo its scaling.
    removes_replicas = False
    for patch in overlay_kustomization.get("patches", []):
        target = patch.get("target", {})
        if target.get("kind") == "StatefulSet" and target.get("name") == sts["metadata"]["name"]:
            operations = yaml.safe_load(patch.get("patch", "")) or []
            removes_replicas |= (isinstance(operations, list)
                                 and {"op": "remove", "path": "/spec/replicas"} in operations)
    check(removes_replicas, "autoscaling overlay: it keeps the StatefulSet's replicas; each apply"
          " would reset the autoscaler's count (patch: remove /spec/replicas)")


def disruptions_allowed(budget, replicas):
    """How many of `replicas` healthy pods the PodDisruptionBudget lets a drain evict."""
    def scaled(value):  # Kubernetes rounds percentages up, for both fields
        if isinstance(value, str) and value.endswith("%"):
            return -(-int(value[:-1]) * replicas // 100)
        return int(value)
    if "maxUnavailable" in budget:
        return min(scaled(budget["maxUnavailable"]), replicas)
    return replicas - scaled(budget.get("minAvailable", 0))


def servers(value):
    return {s.strip() for s in str(value).split(",") if s.strip()}


scaled_objects = [doc for (kind, _), doc in overlay.items() if kind == "ScaledObject"]
check(len(scaled_objects) == 1, f"autoscaling overlay: {len(scaled_objects)} ScaledObjects, want 1")
mounted_secrets = {v["secret"]["secretName"] for v in pod["volumes"] if "secret" in v}
for scaled_object in scaled_objects:
    where = f"ScaledObject {scaled_object['metadata']['name']}"
    spec = scaled_object.get("spec", {})
    target = spec.get("scaleTargetRef", {})
    check(target.get("apiVersion", "apps/v1") == "apps/v1" and target.get("kind") == "StatefulSet"
          and target.get("name") == sts["metadata"]["name"],
          f"{where}: scaleTargetRef must be the StatefulSet {sts['metadata']['name']} (apiVersion"
          " apps/v1, kind StatefulSet: KEDA's default kind is Deployment)")
    # Replicas: no more than the tasks that hold state; enough for a standby on another pod, and
    # for the PodDisruptionBudget to let a drain through at the minimum.
    series_partitions = int(effective.get("series.partitions", "6"))
    standbys = int(effective.get("kafka.num.standby.replicas", "0"))
    minimum, maximum = spec.get("minReplicaCount", 0), spec.get("maxReplicaCount", 100)
    check(maximum <= series_partitions, f"{where}: maxReplicaCount {maximum} > series.partitions"
          f" {series_partitions}: pods past it get no stateful task")
    floor = max(2, standbys + 1)
    check(minimum >= floor, f"{where}: minReplicaCount {minimum} < {floor}: every task's standby"
          " replica needs another pod")
    check(minimum <= maximum, f"{where}: minReplicaCount {minimum} > maxReplicaCount {maximum}")
    check("idleReplicaCount" not in spec, f"{where}: idleReplicaCount scales the processors to zero")
    check(disruptions_allowed(pdb["spec"], minimum) >= 1, f"{where}: the PodDisruptionBudget allows"
          f" no disruption at minReplicaCount {minimum}: node drains would block")
    # Slow: every step a rebalance. Down one pod at a time after a long window; up in bounded steps
    # no more often than a restore takes. The HPA's defaults are neither (down: every pod above
    # the minimum after 5 minutes; up: doubling every 15 s).
    behavior = spec.get("advanced", {}).get("horizontalPodAutoscalerConfig", {}).get("behavior", {})
    down, up = behavior.get("scaleDown", {}), behavior.get("scaleUp", {})
    check(down.get("stabilizationWindowSeconds", 300) >= 300, f"{where}: scale-down stabilization"
          f" window {down.get('stabilizationWindowSeconds')} s, want at least 5 minutes")
    if down.get("selectPolicy") != "Disabled":
        policies = down.get("policies") or []
        check(bool(policies)
              and all(p.get("type") == "Pods" and p.get("value", 0) <= 1 for p in policies),
              f"{where}: scale-down policies must remove at most 1 pod per period (type Pods, value 1)")
    if up.get("selectPolicy") != "Disabled":
        policies = up.get("policies") or []
        check(bool(policies) and all(p.get("type") == "Pods"
                                     and p.get("periodSeconds", 0) >= RESTORE_SECONDS
                                     for p in policies),
              f"{where}: scale-up policies must add a bounded number of pods (type Pods) at most once"
              f" per {RESTORE_SECONDS} s (a restore)")
    # The trigger: the processors' consumer group on the input topic, on the same cluster, with
    # the same security; credentials from Secrets.
    triggers = [t for t in spec.get("triggers", []) if t.get("type") == "kafka"]
    check(len(triggers) == 1, f"{where}: {len(triggers)} kafka triggers, want 1")
    for trigger in triggers:
        at = f"{where}: kafka trigger"
        metadata = trigger.get("metadata", {})
        for key, value in metadata.items():
            check(isinstance(value, str), f"{at}: metadata.{key} is not a string (quote it: KEDA's"
                  " metadata is a map of strings)")
            check(key not in KEDA_CREDENTIALS, f"{at}: metadata.{key} holds a value in Git; name a"
                  " Secret's key in the TriggerAuthentication")
        check(metadata.get("consumerGroup") == effective.get("application.id"),
              f"{at}: consumerGroup {metadata.get('consumerGroup')} is not application.id"
              f" {effective.get('application.id')} (Kafka Streams' consumer group)")
        check(metadata.get("topic") == effective.get("input.topic"),
              f"{at}: topic {metadata.get('topic')} is not input.topic {effective.get('input.topic')}")
        check(servers(metadata.get("bootstrapServers", "")) == servers(effective["bootstrap.servers"]),
              f"{at}: bootstrapServers {metadata.get('bootstrapServers')} are not bootstrap.servers")
        check(str(metadata.get("allowIdleConsumers", "false")).lower() != "true",
              f"{at}: allowIdleConsumers lets KEDA ask for more pods than the input topic's partitions")
        check(re.fullmatch(r"[1-9][0-9]*", str(metadata.get("lagThreshold", ""))) is not None,
              f"{at}: lagThreshold {metadata.get('lagThreshold')} is not a positive whole number")
        protocol = effective.get("kafka.security.protocol", "PLAINTEXT").upper()
        mechanism = effective.get("kafka.sasl.mechanism", "GSSAPI").upper()
        want_tls = "enable" if protocol in ("SSL", "SASL_SSL") else "disable"
        want_sasl = (KEDA_SASL.get(mechanism, mechanism.lower()) if protocol.startswith("SASL_")
                     else "none")
        check(metadata.get("tls", "disable") == want_tls, f"{at}: tls {metadata.get('tls', 'disable')},"
              f" kafka.security.protocol {protocol} wants {want_tls}")
        check(metadata.get("sasl", "none") == want_sasl, f"{at}: sasl {metadata.get('sasl', 'none')},"
              f" kafka.security.protocol {protocol} and kafka.sasl.mechanism {mechanism} want {want_sasl}")
        reference = trigger.get("authenticationRef", {})
        auth_kind = reference.get("kind", "TriggerAuthentication")
        auth = overlay.get((auth_kind, reference.get("name")))
        if auth is None:
            check(want_sasl == "none" and want_tls == "disable", f"{at}: authenticationRef"
                  f" {auth_kind} {reference.get('name')} is not in the overlay")
            continue
        auth_name = f"{auth_kind} {reference.get('name')}"
        auth_spec = auth.get("spec", {})
        others = sorted(set(auth_spec) - {"secretTargetRef"})
        check(not others, f"{auth_name}: {', '.join(others)}: give credentials as Secrets' keys"
              " (secretTargetRef) only")
        refs = {}
        for entry in auth_spec.get("secretTargetRef", []):
            parameter = entry.get("parameter")
            refs[parameter] = entry
            check(set(entry) == {"parameter", "name", "key"}, f"{auth_name}: {parameter}: a Secret's"
                  " name and key only (parameter, name, key), no value in Git")
            check(parameter not in ("sasl", "tls"), f"{auth_name}: {parameter}: give it in the trigger's"
                  " metadata, where it is checked against kafka.security.protocol")
        for secret_name in sorted({str(entry.get("name")) for entry in refs.values()}):
            check(secret_name in secret_instructions,
                  f"{auth_name}: secret.yaml does not say how to create the Secret {secret_name}")
        if want_sasl != "none":
            for parameter in ("username", "password"):
                entry = refs.get(parameter, {})
                check(bool(entry.get("name")), f"{auth_name}: no {parameter} for sasl {want_sasl}")
                check(entry.get("name") not in mounted_secrets, f"{auth_name}: {parameter} from the"
                      f" processors' Secret {entry.get('name')}: give the autoscaler a principal of its"
                      " own, with DESCRIBE only (docs/security.md)")
        # A private CA the processors trust (PEM): the autoscaler trusts the same one.
        truststore = effective.get("kafka.ssl.truststore.location")
        if want_tls == "enable" and truststore and effective.get("kafka.ssl.truststore.type") == "PEM":
            directory, file_name = posixpath.split(truststore)
            volume = volumes.get(mounts.get(directory), {}).get("secret")
            if volume:
                key = next((i["key"] for i in volume.get("items", []) if i["path"] == file_name),
                           file_name)
                ca = refs.get("ca", {})
                check((ca.get("name"), ca.get("key")) == (volume["secretName"], key),
                      f"{auth_name}: ca is not the brokers' CA the processors trust (Secret"
                      f" {volume['secretName']}, key {key})")

for e in errors:
    print("check-deploy:", e, file=sys.stderr)
print(f"check-deploy: {len(yaml_files)} YAML files, dashboards, Dockerfile: "
      + ("ok" if not errors else f"{len(errors)} problem(s)"))
sys.exit(1 if errors else 0)
