#!/usr/bin/env python3
"""Tests of .ci/check-deploy.py: it passes on the repository's files, and each mutation below,
applied alone to a copy of them, makes it fail with the message expected. A check that a mutation
does not trip is a check that does not work."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FILES = ["README.md", "docs", "docker-compose.yml", "deploy", ".ci/check-deploy.py"]
STS = "deploy/kubernetes/statefulset.yaml"
CM = "deploy/kubernetes/configmap.yaml"
NP = "deploy/kubernetes/networkpolicy.yaml"
COMPOSE = "docker-compose.yml"
BASE = "deploy/kubernetes/kustomization.yaml"
PDB = "deploy/kubernetes/poddisruptionbudget.yaml"
OVERLAY = "deploy/kubernetes-autoscaling/kustomization.yaml"
SO = "deploy/kubernetes-autoscaling/scaledobject.yaml"
SERIES_DASHBOARD = "deploy/grafana/dashboards/bucketer-series.json"
API_DATASOURCE = "deploy/grafana/provisioning/datasources/bucketer-api.yml"
PANEL_URL = "&interval_ms=${__interval_ms}&fill=null"

INIT_CONTAINER = """      initContainers:
        - name: wait
          image: busybox
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
      containers:
"""

ALL = "all"  # a sixth element: replace every occurrence, not the only one

# (name, file or files, text to replace, replacement, part of the expected message[, ALL])
MUTATIONS = [
    ("privilege escalation", STS, "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true",
     "allowPrivilegeEscalation must be false"),
    ("writable root", STS, "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false",
     "readOnlyRootFilesystem must be true"),
    ("capabilities kept", STS, 'drop: ["ALL"]', 'drop: ["NET_RAW"]', "capabilities must drop ALL"),
    ("root allowed", STS, "runAsNonRoot: true\n            allowPrivilegeEscalation",
     "runAsNonRoot: false\n            allowPrivilegeEscalation", "runAsNonRoot must be true"),
    ("no seccomp", STS, "seccompProfile:\n              type: RuntimeDefault",
     "seccompProfile:\n              type: Unconfined", "seccompProfile must be RuntimeDefault"),
    ("init container without /tmp", STS, "      containers:\n", INIT_CONTAINER,
     "initContainers wait: /tmp is not an emptyDir"),
    ("hostPath volume", STS, "        - name: tmp\n          emptyDir:",
     "        - name: host\n          hostPath: {path: /}\n        - name: tmp\n          emptyDir:",
     "the restricted standard forbids"),
    ("no NetworkPolicy", "deploy/kubernetes/kustomization.yaml", "  - networkpolicy.yaml\n", "",
     "networkpolicy.yaml is not a resource"),
    ("egress anywhere", NP, "cidr: 192.0.2.0/24", "cidr: 0.0.0.0/0", "open to any address"),
    ("ingress on every port", NP, "  ingress:\n    # The HTTP port only",
     "  ingress:\n    - from: [{podSelector: {}}]\n    # The HTTP port only", "open on every port"),
    ("no DNS", NP, "          port: 53\n        - protocol: TCP\n          port: 53",
     "          port: 5353\n        - protocol: TCP\n          port: 5353", "no DNS"),
    ("no egress to Kafka", NP, "port: 9093", "port: 9092", "no egress to Kafka's port 9093"),
    ("probe over HTTP with TLS on", STS, "scheme: HTTPS\n              path: /ready",
     "scheme: HTTP\n              path: /ready", "readinessProbe scheme HTTP"),
    ("probes over HTTPS with TLS off", CM, "    http.tls.cert.file=/etc/bucketer/tls/tls.crt\n", "",
     "startupProbe scheme HTTPS"),
    ("metrics closed to Prometheus", CM, "http.metrics.access=open", "http.metrics.access=api",
     "Prometheus scrapes it"),
    ("secret as a variable", STS, "          env:\n",
     "          env:\n            - name: BUCKETER_MONGODB_URI\n              valueFrom:\n"
     "                secretKeyRef: {name: bucketer-credentials, key: mongodb-uri}\n",
     "comes from a Secret as a variable"),
    ("secret value in the ConfigMap", CM, "mongodb.uri=${dir:/etc/bucketer/secrets:mongodb-uri}",
     "mongodb.uri=mongodb://u:p@db/", "mongodb.uri holds a value"),
    ("reference to a key not mounted", CM, "${dir:/etc/bucketer/secrets:mongodb-uri}",
     "${dir:/etc/bucketer/secrets:mongo-uri}", "mongo-uri is not an item"),
    ("file outside any volume", CM, "http.auth.users.file=/etc/bucketer/auth/users",
     "http.auth.users.file=/etc/bucketer/users", "/etc/bucketer is not a mounted volume"),
    ("unknown setting", CM, "http.metrics.access=open", "http.metric.access=open",
     "unknown setting http.metric.access"),
    ("unknown setting in a comment", COMPOSE, "# BUCKETER_HTTP_AUTH_USERS_FILE:",
     "# BUCKETER_HTTP_AUTH_USER_FILE:", "(commented) BUCKETER_HTTP_AUTH_USER_FILE"),
    ("compose metrics closed", COMPOSE, "  BUCKETER_HTTP_METRICS_ACCESS: open\n  # Secured",
     "  BUCKETER_HTTP_METRICS_ACCESS: api\n  # Secured", "set BUCKETER_HTTP_METRICS_ACCESS=open"),
    ("compose loopback", COMPOSE, "  BUCKETER_HTTP_AUTH_MODE: open\n", "",
     "http.auth.mode=loopback refuses"),
    ("compose TLS with an http healthcheck", COMPOSE, "  # BUCKETER_HTTP_TLS_CERT_FILE:",
     "  BUCKETER_HTTP_TLS_CERT_FILE:", "the healthcheck must use https://"),
    ("compose port on every interface", COMPOSE, '"127.0.0.1:8080:8080"', '"8080:8080"',
     "published beyond the host"),
    ("namespace not labelled", "deploy/README.md", "kubectl label namespace <namespace> pod-security",
     "kubectl label namespace <namespace> pod-sec", "label the namespace with the restricted standard"),
    ("a Secret with values", "deploy/kubernetes/secret.yaml", "# holds. docs/security.md",
     "# holds.\napiVersion: v1\nkind: Secret\nmetadata: {name: x}\nstringData: {a: b}\n#",
     "a Secret with values in Git"),
    ("Dockerfile as root", "deploy/docker/Dockerfile", "USER 10001:10001", "USER root",
     "numeric non-root uid"),
    ("alerts not loaded", "deploy/prometheus/prometheus.yml", "  - alerts.yml\n", "  - rules.yml\n",
     "alerts.yml is not among its rule_files"),
    ("alerts not mounted", COMPOSE,
     "      - ./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro\n", "",
     "rule file alerts.yml is not mounted"),
    ("panel on an unknown data source", SERIES_DASHBOARD,
     'Shaded red below 0.9.",\n      "datasource": {\n'
     '        "type": "yesoreyeram-infinity-datasource",\n        "uid": "bucketer-api"',
     'Shaded red below 0.9.",\n      "datasource": {\n'
     '        "type": "yesoreyeram-infinity-datasource",\n        "uid": "bucketer-apl"',
     "panel Coverage: data source bucketer-apl is not provisioned"),
    ("unknown /buckets parameter", SERIES_DASHBOARD, PANEL_URL, PANEL_URL + "&step=60s",
     "unknown parameter step of /api/v1/series/{sensor_id}/buckets", ALL),
    ("from as epoch milliseconds", SERIES_DASHBOARD, "from=${__from:date:iso}", "from=${__from}",
     "the API takes ISO-8601 instants", ALL),
    ("column the API does not answer", SERIES_DASHBOARD, '"selector": "count"',
     '"selector": "readings"', "column readings is not a field of a /buckets point"),
    ("panel URL with a host", SERIES_DASHBOARD, '"url": "/api/v1/series/${sensor',
     '"url": "http://elsewhere:8080/api/v1/series/${sensor', "names a host", ALL),
    ("token in the provisioning file", API_DATASOURCE,
     "bearerToken: $__file{/etc/grafana/secrets/bucketer-token}", "bearerToken: s3cret",
     "secureJsonData.bearerToken holds a value"),
    ("token file not mounted", COMPOSE,
     "      - ./deploy/grafana/demo-token:/etc/grafana/secrets/bucketer-token:ro\n", "",
     "/etc/grafana/secrets/bucketer-token is not mounted in the grafana container"),
    ("token sent to other hosts", API_DATASOURCE, "        - http://processor-1:8080\n",
     "        - http://processor-1:8080\n        - http://elsewhere\n", "allowedHosts must be"),
    ("time-weighted point fields undocumented", "docs/operations.md",
     "the time-weighted average `twa` and the covered fraction `coverage`",
     "the time-weighted average and the covered fraction",
     "column twa is not a field of a /buckets point"),
    # Both documents name a point's quantiles (querying.md's example, operations.md's row): gone
    # from one alone is not a breach.
    ("quantiles not in the documented answer", ("docs/querying.md", "docs/operations.md"),
     "quantiles", "percentiles", "column quantiles.p95 is not a field of a /buckets point", ALL),
    ("Infinity not pinned", COMPOSE, "yesoreyeram-infinity-datasource@3.7.2",
     "yesoreyeram-infinity-datasource", "at a pinned version"),
    ("Prometheus dashboard without flush latency", "deploy/grafana/dashboards/bucketer.json",
     "bucketer_sink_write_latency_seconds_bucket", "bucketer_sink_write_latency_seconds_count",
     "no panel shows bucketer_sink_write_latency_seconds_bucket", ALL),
    # The autoscaler (deploy/kubernetes-autoscaling).
    ("KEDA's objects in the base", BASE, "  - networkpolicy.yaml\n",
     "  - networkpolicy.yaml\n  - ../kubernetes-autoscaling/scaledobject.yaml\n", "the base holds KEDA's objects"),
    ("overlay without the base", OVERLAY, "  - ../kubernetes\n", "", "does not list the base"),
    ("overlay including a directory above it", OVERLAY, "  - ../kubernetes\n", "  - ..\n",
     "contains the overlay's: kustomize refuses it"),
    ("overlay resource missing", OVERLAY, "  - scaledobject.yaml\n", "  - scaledobjects.yaml\n",
     "scaledobjects.yaml missing"),
    ("overlay keeps the replicas", OVERLAY, "path: /spec/replicas", "path: /spec/minReadySeconds",
     "keeps the StatefulSet's replicas"),
    ("autoscaler targets a Deployment", SO, "    kind: StatefulSet\n", "",
     "scaleTargetRef must be the StatefulSet bucketer"),
    ("more pods than series partitions", SO, "maxReplicaCount: 12", "maxReplicaCount: 13",
     "maxReplicaCount 13 > series.partitions 12"),
    ("series partitions below the autoscaler's maximum", CM, "series.partitions=12",
     "series.partitions=8", "maxReplicaCount 12 > series.partitions 8"),
    ("autoscaler down to one pod", SO, "minReplicaCount: 3", "minReplicaCount: 1",
     "minReplicaCount 1 < 2"),
    ("drains blocked at the minimum", PDB, "  maxUnavailable: 1\n", "  minAvailable: 3\n",
     "allows no disruption at minReplicaCount 3"),
    ("scale-down window too short", SO, "stabilizationWindowSeconds: 600",
     "stabilizationWindowSeconds: 60", "scale-down stabilization window 60 s"),
    ("scale-down several pods at once", SO,
     "value: 1\n              periodSeconds: 600", "value: 3\n              periodSeconds: 600",
     "scale-down policies must remove at most 1 pod per period"),
    ("scale-down by the HPA's default", SO,
     "          policies:\n            - type: Pods\n              value: 1\n              periodSeconds: 600\n",
     "", "scale-down policies must remove at most 1 pod per period"),
    ("scale-up by percent", SO,
     "- type: Pods\n              value: 1\n              periodSeconds: 300",
     "- type: Percent\n              value: 100\n              periodSeconds: 300",
     "scale-up policies must add a bounded number of pods"),
    ("scale-up faster than a restore", SO, "periodSeconds: 300", "periodSeconds: 15",
     "scale-up policies must add a bounded number of pods"),
    ("lag of another consumer group", SO, "consumerGroup: bucketer", "consumerGroup: bucketer-sink",
     "consumerGroup bucketer-sink is not application.id bucketer"),
    ("lag of another topic", SO, "topic: iot.readings", "topic: iot.buckets",
     "topic iot.buckets is not input.topic iot.readings"),
    ("lag from another cluster", SO,
     "bootstrapServers: kafka-0.kafka.example.net:9093,", "bootstrapServers: kafka-9.kafka.example.net:9093,",
     "bootstrapServers kafka-9.kafka.example.net:9093"),
    ("idle consumers allowed", SO, 'allowIdleConsumers: "false"', 'allowIdleConsumers: "true"',
     "allowIdleConsumers lets KEDA ask for more pods"),
    ("unquoted metadata", SO, 'allowIdleConsumers: "false"', "allowIdleConsumers: false",
     "metadata.allowIdleConsumers is not a string"),
    ("autoscaler without TLS", SO, "tls: enable", "tls: disable",
     "tls disable, kafka.security.protocol SASL_SSL wants enable"),
    ("autoscaler with another SASL mechanism", SO, "sasl: scram_sha512", "sasl: scram_sha256",
     "want scram_sha512"),
    ("trigger authentication missing", SO, "        name: bucketer-autoscaler\n",
     "        name: bucketer-autoscale\n", "authenticationRef TriggerAuthentication bucketer-autoscale"
     " is not in the overlay"),
    ("literal password in the TriggerAuthentication", SO,
     "    - parameter: password\n      name: bucketer-autoscaler-credentials\n      key: password\n",
     "    - parameter: password\n      value: s3cret\n",
     "password: a Secret's name and key only"),
    ("literal password in the trigger", SO, "        tls: enable\n",
     "        tls: enable\n        password: s3cret\n", "metadata.password holds a value in Git"),
    ("autoscaler with the processors' credentials", SO,
     "name: bucketer-autoscaler-credentials\n      key: password",
     "name: bucketer-credentials\n      key: password",
     "password from the processors' Secret bucketer-credentials"),
    ("autoscaler's Secret undocumented", "deploy/kubernetes/secret.yaml",
     "bucketer-autoscaler-credentials", "the-autoscaler-credentials",
     "secret.yaml does not say how to create the Secret bucketer-autoscaler-credentials", ALL),
    ("autoscaler trusts another CA", SO, "      name: bucketer-kafka-truststore\n      key: ca.crt",
     "      name: bucketer-kafka-truststore\n      key: ca.pem",
     "ca is not the brokers' CA the processors trust"),
    ("NetworkPolicy in the overlay", SO, "---\n# The credentials",
     "---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: keda}\n"
     "spec: {podSelector: {}}\n---\n# The credentials", "NetworkPolicy keda: only KEDA's"),
]

# Mutations of the secured variant (secure() below), where the processors want credentials.
SECURED_MUTATIONS = [
    ("data source on the API without a token", API_DATASOURCE, "      auth_method: bearerToken\n",
     "", "calls processor-1 without a bearer token"),
    ("token header instead of the bearer method", API_DATASOURCE,
     "      auth_method: bearerToken\n",
     "      httpHeaderName1: Authorization\n", "calls processor-1 without a bearer token"),
    ("data source over HTTP to an HTTPS processor", API_DATASOURCE, "url: https://processor-1",
     "url: http://processor-1", "http:// to processor-1, whose listener speaks https"),
    ("processors without a tokens file", COMPOSE, "  BUCKETER_HTTP_AUTH_TOKENS_FILE:",
     "  # BUCKETER_HTTP_AUTH_TOKENS_FILE:", "has no http.auth.tokens.file"),
]


def run(root):
    return subprocess.run([sys.executable, ".ci/check-deploy.py"], cwd=root,
                          capture_output=True, text=True)


def copy(root):
    for path in FILES:
        target = os.path.join(root, path)
        os.makedirs(os.path.dirname(target) or root, exist_ok=True)
        (shutil.copytree if os.path.isdir(path) else shutil.copy)(path, target)




def secure(root):
    """Switches the compose stack to its commented "Secured variant", as deploy/README.md says."""
    lines = []
    for line in open(os.path.join(root, COMPOSE)).read().splitlines():
        if line in ("  BUCKETER_HTTP_AUTH_MODE: open", "  BUCKETER_HTTP_METRICS_ACCESS: open"):
            continue
        if "http://localhost:8080/health" in line or "./deploy/grafana/demo-token:" in line:
            continue
        match = re.match(r"^(\s*)# ((BUCKETER_HTTP_[A-Z_]+|test): .*|- \./secrets/.*)$", line)
        lines.append(match.group(1) + match.group(2) if match else line)
    open(os.path.join(root, COMPOSE), "w").write("\n".join(lines) + "\n")
    prometheus = os.path.join(root, "deploy/prometheus/prometheus.yml")
    text = open(prometheus).read()
    for option in ("scheme: https", "tls_config:", "  ca_file:"):
        text = text.replace("# " + option, option)
    open(prometheus, "w").write(text)
    datasource = os.path.join(root, API_DATASOURCE)
    text = open(datasource).read().replace("http://processor-1:8080", "https://processor-1:8080")
    for option in ("tlsAuthWithCACert:", "serverName:", "tlsCACert:"):
        text = text.replace("# " + option, option)
    open(datasource, "w").write(text)


failures = []
with tempfile.TemporaryDirectory() as clean:
    copy(clean)
    result = run(clean)
    if result.returncode != 0:
        failures.append(f"the repository's own files fail: {result.stderr.strip()}")
# The commented secured variant, switched on, is a valid stack that passes the same checks.
with tempfile.TemporaryDirectory() as secured:
    copy(secured)
    secure(secured)
    compose = open(os.path.join(secured, COMPOSE)).read()
    if "BUCKETER_HTTP_TLS_CERT_FILE: /etc" not in compose or "- ./secrets/tls" not in compose:
        failures.append("the secured variant was not switched on")
    result = run(secured)
    if result.returncode != 0:
        failures.append(f"the secured compose variant fails: {result.stderr.strip()}")
    if shutil.which("docker-compose"):
        result = subprocess.run(["docker-compose", "-f", COMPOSE, "config", "-q"], cwd=secured,
                                capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"docker-compose refuses the secured variant: {result.stderr.strip()}")
for secured, (name, path, old, new, expected, *every) in (
        [(False, m) for m in MUTATIONS] + [(True, m) for m in SECURED_MUTATIONS]):
    with tempfile.TemporaryDirectory() as root:
        copy(root)
        if secured:
            secure(root)
        paths = path if isinstance(path, tuple) else (path,)
        texts = {p: open(os.path.join(root, p)).read() for p in paths}
        absent = [p for p, text in texts.items()
                  if text.count(old) != 1 and not (every and text.count(old) > 1)]
        if absent:
            failures.append(f"{name}: {old!r} is not once in {', '.join(absent)}")
            continue
        for p, text in texts.items():
            open(os.path.join(root, p), "w").write(text.replace(old, new))
        result = run(root)
        if result.returncode == 0 or expected not in result.stderr:
            failures.append(f"{name}: expected a failure with {expected!r}, got "
                            f"exit {result.returncode}: {result.stderr.strip() or result.stdout}")

for failure in failures:
    print("test-check-deploy:", failure, file=sys.stderr)
print(f"test-check-deploy: {len(MUTATIONS) + len(SECURED_MUTATIONS)} mutations: "
      + ("each caught" if not failures else f"{len(failures)} problem(s)"))
sys.exit(1 if failures else 0)
