#!/usr/bin/env python3
"""Checks deploy/observability (X4): the alert rules with promtool (`check rules`, and `test rules` on
alerts-test.yaml, where each alert must fire on the series it is about), that the per-group dashboards are what
scripts/dashboards.py makes of the platform-wide ones and every dashboard is shipped by kustomization.yaml, and
every Grafana dashboard: its
shape (uid, title, panels with a Prometheus target each) and every query's PromQL, by handing the queries to
`promtool check rules` as recording rules. promtool comes from Debian's `prometheus` package
(scripts/install-deps.sh)."""
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

import yaml

root = pathlib.Path(__file__).resolve().parent.parent
folder = root / "deploy/observability"


def run(*arguments: str) -> list[str]:
    answer = subprocess.run(arguments, cwd=folder, capture_output=True, text=True)
    return [] if answer.returncode == 0 else [f"{' '.join(arguments)}:\n{answer.stdout}{answer.stderr}"]


def dashboard_problems(path: pathlib.Path) -> tuple[list[str], list[str]]:
    problems, queries = [], []
    try:
        board = json.loads(path.read_text())
    except ValueError as error:
        return [f"{path.name}: not JSON: {error}"], []
    for key in ("uid", "title", "panels"):
        if not board.get(key):
            problems.append(f"{path.name}: no {key}")
    ids = set()
    for panel in board.get("panels", []):
        name = f"{path.name} panel {panel.get('title')!r}"
        if panel.get("id") in ids:
            problems.append(f"{name}: id {panel.get('id')} used twice")
        ids.add(panel.get("id"))
        if panel.get("datasource", {}).get("type") != "prometheus":
            problems.append(f"{name}: not a Prometheus panel")
        targets = panel.get("targets") or []
        if not targets:
            problems.append(f"{name}: no query")
        for target in targets:
            expr = target.get("expr", "")
            if not expr:
                problems.append(f"{name}: a target without expr")
            # Grafana's variables are not PromQL: put a value in their place for the syntax check.
            queries.append(expr.replace("$service", ".*").replace("$__rate_interval", "5m"))
    return problems, queries


def scrape_config_problems() -> list:
    """prometheus.yaml with promtool, and what the rules rely on: the pod's `app` label kept as `service` and its
    namespace as `namespace`. Debian's promtool is built without Kubernetes discovery, so it checks a copy whose
    discovery is a static target; the relabelling and the rule files are checked as written."""
    config = yaml.safe_load((folder / "prometheus.yaml").read_text())
    problems = []
    jobs = config.get("scrape_configs") or []
    for job in jobs:
        relabels = {(tuple(rule.get("source_labels", [])), rule.get("target_label")) for rule in job.get("relabel_configs", [])}
        for source, target in [("__meta_kubernetes_pod_label_app", "service"), ("__meta_kubernetes_namespace", "namespace")]:
            if ((source,), target) not in relabels:
                problems.append(f"prometheus.yaml: job {job.get('job_name')} does not keep {source} as {target}")
        discovery = job.pop("kubernetes_sd_configs", None)
        if not discovery or discovery[0].get("namespaces", {}).get("names") != ["mobile-backend"]:
            problems.append(f"prometheus.yaml: job {job.get('job_name')} must discover the pods of namespace mobile-backend")
        job["static_configs"] = [{"targets": ["127.0.0.1:8080"]}]
    if not jobs:
        problems.append("prometheus.yaml: no scrape job")
    copy = folder / ".prometheus-check.yaml"
    copy.write_text(yaml.safe_dump(config))
    try:
        problems += run("promtool", "check", "config", copy.name)
    finally:
        copy.unlink()
    # The Operator's PodMonitor selects exactly the services and keeps `app` as `service`.
    monitor = yaml.safe_load((folder / "podmonitor.yaml").read_text())
    services = {path.stem for path in (root / "deploy/k8s").glob("*.yaml")} - {"kustomization", "namespace", "platform-config", "topics-job"}
    selected = set(monitor["spec"]["selector"]["matchExpressions"][0]["values"])
    if selected != services:
        problems.append(f"podmonitor.yaml selects {sorted(selected)}, the services are {sorted(services)}")
    endpoint = monitor["spec"]["podMetricsEndpoints"][0]
    if not any(r.get("targetLabel") == "service" and r.get("sourceLabels") == ["__meta_kubernetes_pod_label_app"]
               for r in endpoint.get("relabelings", [])):
        problems.append("podmonitor.yaml does not keep the pod's app label as service")
    return problems


def main() -> int:
    if shutil.which("promtool") is None:
        print("check-observability: promtool is missing (apt-get install prometheus; scripts/install-deps.sh does)", file=sys.stderr)
        return 1
    problems = run("promtool", "check", "rules", "alerts.yaml") + run("promtool", "test", "rules", "alerts-test.yaml")
    problems += scrape_config_problems()
    # The per-group boards are generated from the platform-wide ones: they must be what the generator writes.
    problems += run(sys.executable, str(root / "scripts/dashboards.py"), "--check")
    listed = set(yaml.safe_load((folder / "kustomization.yaml").read_text())["configMapGenerator"][2]["files"])
    problems += [f"kustomization.yaml does not ship {path.name}" for path in sorted((folder / "dashboards").glob("*.json"))
                 if f"dashboards/{path.name}" not in listed]
    queries = []
    dashboards = sorted((folder / "dashboards").glob("*.json"))
    for path in dashboards:
        found, exprs = dashboard_problems(path)
        problems += found
        queries += exprs
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as rules:
        yaml.safe_dump({"groups": [{"name": "dashboard-queries", "rules": [
            {"record": f"dashboard:query{index}", "expr": expr} for index, expr in enumerate(queries)]}]}, rules)
    problems += run("promtool", "check", "rules", rules.name)
    pathlib.Path(rules.name).unlink()
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"check-observability: scrape configuration, alert rules and {len(dashboards)} dashboards ({len(queries)} queries), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
