"""Checks docker-compose.yml against the Compose specification schema and the Kubernetes manifests against
the Kubernetes OpenAPI schemas, without a Docker engine or a cluster. Exits non-zero naming each problem."""
import glob
import json
import os
import sys
import zipfile

import jsonschema
import kubernetes_validate
import yaml

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
problems = []

compose_wheel = glob.glob(os.path.join(sys.argv[1], "docker_compose-*.whl"))[0]
schema = json.loads(zipfile.ZipFile(compose_wheel).read("compose/config/compose_spec.json"))
with open(os.path.join(root, "docker-compose.yml")) as handle:
    compose = yaml.safe_load(handle)
for error in jsonschema.Draft7Validator(schema).iter_errors(compose):
    problems.append(f"docker-compose.yml: {'/'.join(map(str, error.path))}: {error.message}")
services = {"weather-fetcher", "warning-detector", "places-importer", "auth", "analytics-aggregator", "appointment-booker"}
missing = services - set(compose["services"])
if missing:
    problems.append(f"docker-compose.yml: services missing: {sorted(missing)}")
for name in services & set(compose["services"]):
    if compose["services"][name].get("command") != [name]:
        problems.append(f"docker-compose.yml: {name} does not run its own executable")

manifests = 0
for path in sorted(glob.glob(os.path.join(root, "deploy", "k8s", "*.yaml"))):
    with open(path) as handle:
        for document in yaml.safe_load_all(handle):
            if not document or document.get("kind") == "Kustomization":
                continue
            manifests += 1
            try:
                kubernetes_validate.validate(document, "1.30", strict=True)
            except kubernetes_validate.ValidationError as error:
                problems.append(f"{os.path.relpath(path, root)}: {document['kind']}: {error.message}")
deployments = {
    doc["metadata"]["name"]
    for path in glob.glob(os.path.join(root, "deploy", "k8s", "*.yaml"))
    for doc in yaml.safe_load_all(open(path))
    if doc and doc.get("kind") == "Deployment"
}
if deployments != services:
    problems.append(f"deploy/k8s: Deployments {sorted(deployments)} do not match the services")

# /metrics is on its own port (U11): each Deployment names it and its scrape annotation points at it, and no
# Service routes to it, so an ingress in front of a Service never exposes the counters.
config = next(doc for doc in yaml.safe_load_all(open(os.path.join(root, "deploy", "k8s", "platform-config.yaml"))) if doc)
metrics_port = int(config["data"].get("METRICS_PORT", "0"))
if not metrics_port or str(metrics_port) == config["data"].get("HTTP_PORT"):
    problems.append("deploy/k8s/platform-config.yaml: METRICS_PORT must be set and differ from HTTP_PORT")
for path in sorted(glob.glob(os.path.join(root, "deploy", "k8s", "*.yaml"))):
    for doc in yaml.safe_load_all(open(path)):
        if not doc or doc.get("kind") not in ("Deployment", "Service"):
            continue
        where = f"{os.path.relpath(path, root)}: {doc['kind']} {doc['metadata'].get('name')}"
        if doc["kind"] == "Deployment":
            template = doc["spec"]["template"]
            ports = {port.get("name"): port["containerPort"] for c in template["spec"]["containers"] for port in c.get("ports", [])}
            annotated = template["metadata"].get("annotations", {}).get("prometheus.io/port")
            if ports.get("metrics") != metrics_port or annotated != str(metrics_port):
                problems.append(f"{where}: needs container port `metrics` {metrics_port} and prometheus.io/port on it")
        if doc["kind"] == "Service":
            if any(port.get("targetPort") in ("metrics", metrics_port) for port in doc["spec"].get("ports", [])):
                problems.append(f"{where}: routes to the metrics port")

# The overlays (X5): what they name exists, and KEDA's ScaledObjects (a CRD the Kubernetes schemas do not
# know) scale a Deployment of the base on its own consumer group and topics of the catalogue, up to the
# topics' partition count.
import re

catalogue = open(os.path.join(root, "Shared", "Events", "TopicCatalogue.swift")).read()
partitions = {name: int(count) for name, count in re.findall(r'name: "([a-z.-]+)", partitions: (\d+)', catalogue)}
hpas = {
    doc["metadata"]["name"]
    for path in glob.glob(os.path.join(root, "deploy", "k8s", "*.yaml"))
    for doc in yaml.safe_load_all(open(path))
    if doc and doc.get("kind") == "HorizontalPodAutoscaler"
}
overlays = sorted(glob.glob(os.path.join(root, "deploy", "overlays", "*", "kustomization.yaml")))
scaled = 0
for path in overlays:
    folder = os.path.dirname(path)
    name = os.path.relpath(path, root)
    kustomization = yaml.safe_load(open(path))
    for resource in kustomization.get("resources", []):
        if not os.path.exists(os.path.join(folder, resource)):
            problems.append(f"{name}: resource {resource} does not exist")
    for generator in kustomization.get("configMapGenerator", []):
        for file in generator.get("files", []):
            if not os.path.exists(os.path.join(folder, file)):
                problems.append(f"{name}: configMapGenerator file {file} does not exist")
    for patch in kustomization.get("patches", []):
        target = patch.get("target", {})
        if target.get("kind") == "HorizontalPodAutoscaler" and target.get("name") not in hpas:
            problems.append(f"{name}: patch targets HorizontalPodAutoscaler {target.get('name')}, which the base does not have")
    for resource in kustomization.get("resources", []):
        resource_path = os.path.join(folder, resource)
        if not resource_path.endswith(".yaml") or not os.path.isfile(resource_path):
            continue
        for doc in yaml.safe_load_all(open(resource_path)):
            if not doc:
                continue
            where = f"{os.path.relpath(resource_path, root)}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
            if doc.get("kind") == "TriggerAuthentication" and doc.get("apiVersion") == "keda.sh/v1alpha1":
                service = doc["metadata"]["name"].removesuffix("-kafka")
                if service not in deployments or any(ref.get("name") != f"{service}-keda" for ref in doc["spec"].get("secretTargetRef", [])):
                    problems.append(f"{where}: must be <service>-kafka reading the <service>-keda secret")
                continue
            if doc.get("kind") != "ScaledObject" or doc.get("apiVersion") != "keda.sh/v1alpha1":
                problems.append(f"{where}: only KEDA ScaledObjects and TriggerAuthentications are expected here")
                continue
            scaled += 1
            spec = doc.get("spec", {})
            target = spec.get("scaleTargetRef", {}).get("name")
            if target not in deployments:
                problems.append(f"{where}: scales {target}, which is not a Deployment of the base")
            triggers = spec.get("triggers") or []
            topics = [t.get("metadata", {}).get("topic") for t in triggers if t.get("type") == "kafka"]
            if not topics:
                problems.append(f"{where}: no kafka trigger")
            for trigger in triggers:
                metadata = trigger.get("metadata", {})
                if trigger.get("type") != "kafka":
                    continue
                if metadata.get("consumerGroup") != target:
                    problems.append(f"{where}: consumerGroup {metadata.get('consumerGroup')} is not the service's group {target}")
                if metadata.get("topic") not in partitions:
                    problems.append(f"{where}: topic {metadata.get('topic')} is not in the topic catalogue")
                if not str(metadata.get("lagThreshold", "")).isdigit():
                    problems.append(f"{where}: lagThreshold must be a whole number")
            ceiling = min((partitions.get(topic, 0) for topic in topics), default=0)
            if not (1 <= spec.get("minReplicaCount", 0) <= spec.get("maxReplicaCount", 0) <= ceiling):
                problems.append(f"{where}: replicas must go from 1 up to at most the topics' partitions ({ceiling})")

# kustomize itself, where kubectl is installed (not on a fresh machine: the checks above still run there).
import shutil
import subprocess

built = 0
if shutil.which("kubectl"):
    for path in overlays:
        answer = subprocess.run(["kubectl", "kustomize", os.path.dirname(path)], capture_output=True, text=True)
        if answer.returncode != 0:
            problems.append(f"{os.path.relpath(path, root)}: kubectl kustomize failed: {answer.stderr.strip()}")
            continue
        built += 1
        documents = [doc for doc in yaml.safe_load_all(answer.stdout) if doc]
        scaled_targets = {d.get("spec", {}).get("scaleTargetRef", {}).get("name") for d in documents if d.get("kind") == "ScaledObject"}
        for doc in documents:
            if doc.get("kind") == "HorizontalPodAutoscaler" and doc["metadata"]["name"] in scaled_targets:
                problems.append(f"{os.path.relpath(path, root)}: {doc['metadata']['name']} has both a CPU HPA and a ScaledObject")

for problem in problems:
    print(problem, file=sys.stderr)
kustomize = f"kustomize built {built} of {len(overlays)} overlays" if shutil.which("kubectl") else "kubectl not installed: overlays not built"
print(
    f"validate-deploy: compose file, {manifests} Kubernetes manifests, {len(overlays)} overlays ({scaled} ScaledObjects) checked, "
    f"{kustomize}; {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
