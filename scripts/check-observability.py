#!/usr/bin/env python3
"""Checks deploy/observability (issue 20): the alert rules with promtool (`check rules`, and `test rules` on
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


def main() -> int:
    if shutil.which("promtool") is None:
        print("check-observability: promtool is missing (apt-get install prometheus; scripts/install-deps.sh does)", file=sys.stderr)
        return 1
    problems = run("promtool", "check", "rules", "alerts.yaml") + run("promtool", "test", "rules", "alerts-test.yaml")
    # The per-group boards are generated from the platform-wide ones: they must be what the generator writes.
    problems += run(sys.executable, str(root / "scripts/dashboards.py"), "--check")
    listed = set(yaml.safe_load((folder / "kustomization.yaml").read_text())["configMapGenerator"][1]["files"])
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
    print(f"check-observability: alert rules and {len(dashboards)} dashboards ({len(queries)} queries), {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
