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

for problem in problems:
    print(problem, file=sys.stderr)
print(f"validate-deploy: compose file and {manifests} Kubernetes manifests checked, {len(problems)} problem(s)")
sys.exit(1 if problems else 0)
