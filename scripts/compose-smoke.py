#!/usr/bin/env python3
"""Starts the services the way docker-compose.yml does, without Docker (X5): each service's `command` with
its compose `environment` (the shared anchor included, `${VAR:-default}` and `${VAR:?}` resolved from a
generated .env), plus the image's own ENV from the Dockerfile, against the test run's Postgres (set up by
deploy/postgres/init.sh, as the postgres image runs it) and broker (topics made by the compose `topics`
service's command). Only what a container network changes is rewritten: the host names `postgres` and `kafka`,
the published port, paths inside the image. Each service must become ready (the compose healthcheck's
`/ready`) and stop with exit code 0 on SIGTERM. A broken variable name or value in the compose file fails here.

Usage: compose-smoke.py BUILD_DIR [--serve STATE_FILE] [--set NAME=VALUE ...] (needs TEST_POSTGRES_HOST/PORT/USER
and TEST_KAFKA_BROKERS).

--set puts a value into the generated .env, as an operator would (a provider's base URL, an SMTP host).
--without SERVICE (with --serve) leaves a service out: its address is handed out, but nothing listens there.
--serve keeps the stack up after the checks for the app journeys (X5): it writes each service's address and
the .env's telemetry keys to STATE_FILE (JSON), and stops the services, with the same exit-code check, on SIGTERM
or when the process that started it is gone."""
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.request

import yaml

from edge_check import edge_problems
from free_ports import free_port

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1]
options = sys.argv[2:]
serve_state = options[options.index("--serve") + 1] if "--serve" in options else None
settings = dict(options[i + 1].split("=", 1) for i, option in enumerate(options) if option == "--set")
# Services left out of a served stack (their address is handed out, nothing listens there): how a journey is shown
# to fail when one service of its path is down.
without = {options[i + 1] for i, option in enumerate(options) if option == "--without"}
postgres_host, postgres_port = os.environ["TEST_POSTGRES_HOST"], os.environ["TEST_POSTGRES_PORT"]
superuser, brokers = os.environ["TEST_POSTGRES_USER"], os.environ["TEST_KAFKA_BROKERS"]
services = ["weather-fetcher", "warning-detector", "places-importer", "auth", "analytics-aggregator", "appointment-booker"]


def dot_env() -> dict[str, str]:
    """What an operator puts in .env: the keys from platformctl, a password per role, the telemetry keys."""
    keys = subprocess.run([os.path.join(build, "platformctl"), "generate-keys"], capture_output=True, text=True, check=True).stdout
    values = dict(line.split("=", 1) for line in keys.split() if "=" in line)
    for name in ["POSTGRES_PASSWORD"] + [f"{s.upper().replace('-', '_')}_DB_PASSWORD" for s in services]:
        values[name] = secrets.token_hex(12)
    values["TELEMETRY_APP_KEYS"] = ";".join(f"{app}={secrets.token_hex(12)}" for app in ["weather", "places", "horoscope", "survey"])
    return {**values, **settings}


def resolve(value: object, env: dict[str, str]) -> str:
    """Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR:?message}."""
    def substitute(match: re.Match) -> str:
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if operator == ":?":
            if not env.get(name):
                raise SystemExit(f"compose-smoke: {name} is required: {rest}")
            return env[name]
        if operator == ":-":
            return env.get(name) or rest
        return env.get(name, "")
    return re.sub(r"\$\{([A-Z0-9_]+)(?:(:[-?])([^}]*))?\}", substitute, str(value))


def image_environment() -> dict[str, str]:
    """The Dockerfile's runtime ENV lines (after its last FROM)."""
    text = open(os.path.join(root, "Dockerfile")).read().split("\nFROM ")[-1]
    values = {}
    for line in re.findall(r"^ENV (.+)$", text, re.MULTILINE):
        for assignment in line.split():
            name, _, value = assignment.partition("=")
            values[name] = value
    return values


def rewrite(environment: dict[str, str], port: int, metrics_port: int) -> dict[str, str]:
    """What a container network changes, and only that."""
    changed = dict(environment)
    assert changed.get("POSTGRES_HOST") == "postgres", "compose services reach Postgres as `postgres`"
    assert changed.get("KAFKA_BROKERS") == "kafka:9092", "compose services reach the broker as kafka:9092"
    changed.update(POSTGRES_HOST=postgres_host, POSTGRES_PORT=postgres_port, KAFKA_BROKERS=brokers, HTTP_HOST="127.0.0.1", HTTP_PORT=str(port),
                   METRICS_PORT=str(metrics_port))
    for name, value in changed.items():
        if value.startswith("/usr/local/share/mobile-backend-platform/"):
            changed[name] = os.path.join(root, "data", "generated", os.path.basename(value))
    return changed


def wait_ready(port: int, process: subprocess.Popen, seconds: int = 180) -> str | None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            return f"exited with {process.returncode} before it was ready"
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as answer:
                if answer.status == 200:
                    return None
        except Exception:
            pass
        time.sleep(0.5)
    return f"not ready after {seconds} s"


def metric_names(port: int) -> set[str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in text.splitlines() if line and not line.startswith("#")}


def metric_problems(started: dict, metrics_ports: dict[str, int], env: dict[str, str]) -> list[str]:
    """Every metric the alert rules and dashboards name is one the services export (after a little traffic:
    one telemetry batch, which analytics-aggregator consumes). Names outside the services (`up`, kube-state-metrics)
    are the scraper's."""
    folder = os.path.join(root, "deploy", "observability")
    exprs = [rule["expr"] for group in yaml.safe_load(open(os.path.join(folder, "alerts.yaml")))["groups"] for rule in group["rules"]]
    for path in sorted(os.listdir(os.path.join(folder, "dashboards"))):
        board = yaml.safe_load(open(os.path.join(folder, "dashboards", path)))
        exprs += [target["expr"] for panel in board["panels"] for target in panel["targets"]]
    wanted = {name for expr in exprs for name in re.findall(r"([a-z_][a-z0-9_]*)\s*[{\[]", expr)} - {"up", "kube_pod_status_ready"}
    # Names picked by a matcher on __name__ (`kafka_(producer|consumer)_rebuilds_total`): each alternative.
    for expr in exprs:
        for pattern in re.findall(r'__name__=~"([^"]+)"', expr):
            alternatives = re.fullmatch(r"([a-z0-9_]*)\(([a-z0-9_|]+)\)([a-z0-9_]*)", pattern)
            wanted |= {alternatives[1] + middle + alternatives[3] for middle in alternatives[2].split("|")} if alternatives else {pattern}
    for service, (_, port, _) in started.items():
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5):
                return [f"{service}: /metrics answered on the public listener (only on METRICS_PORT)"]
        except urllib.error.HTTPError:
            pass
    key = env["TELEMETRY_APP_KEYS"].split(";")[0].split("=", 1)[1]
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    batch = {"events": [{"id": "7f0c8e5e-0d55-4a57-9f3e-1c1d7c3a9e01", "kind": "install", "occurredAt": now, "deviceId": "smoke",
                         "platform": "ios", "appVersion": "1.0"}]}
    request = urllib.request.Request(
        f"http://127.0.0.1:{started['analytics-aggregator'][1]}/v1/telemetry", data=json.dumps(batch).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-App-Key": key})
    with urllib.request.urlopen(request, timeout=10) as answer:
        if answer.status != 202:
            return [f"analytics-aggregator: the smoke's telemetry batch answered {answer.status}"]
    deadline, missing = time.time() + 30, wanted
    while time.time() < deadline:
        exported = set().union(*(metric_names(port) for port in metrics_ports.values()))
        missing = wanted - exported
        if not missing:
            return []
        time.sleep(1)
    return [f"deploy/observability names metrics no service exports: {sorted(missing)}"]


def serve(path: str, ports: dict[str, int], env: dict[str, str]) -> None:
    """Hands the running stack to the journeys until they are done (SIGTERM) or their process died."""
    state = {"services": {service: f"http://127.0.0.1:{port}" for service, port in ports.items()},
             "telemetryKeys": dict(entry.split("=", 1) for entry in env["TELEMETRY_APP_KEYS"].split(";"))}
    with open(path + ".partial", "w") as handle:
        json.dump(state, handle)
    os.replace(path + ".partial", path)
    print(f"compose-smoke: serving {len(ports)} services for the journeys until SIGTERM", flush=True)
    stop, parent = [], os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    while not stop and os.getppid() == parent:
        time.sleep(0.5)


def main() -> int:
    compose = yaml.safe_load(open(os.path.join(root, "docker-compose.yml")))
    env = dot_env()
    # The postgres image runs init.sh once, on an empty volume: a run before this one is cleared away first.
    psql = ["psql", "-v", "ON_ERROR_STOP=1", "-h", postgres_host, "-p", postgres_port, "-U", superuser, "-d", "postgres", "-c"]
    subprocess.run(psql + ["DROP DATABASE IF EXISTS platform WITH (FORCE)"], check=True, capture_output=True)
    for service in services:
        subprocess.run(psql + [f"DROP ROLE IF EXISTS {service.replace('-', '_')}"], check=True, capture_output=True)
    # init.sh with the postgres service's environment, as the test cluster's superuser; the bootstrap it runs is
    # the file compose mounts at /platform/bootstrap.sql.
    postgres_env = {name: resolve(value, env) for name, value in compose["services"]["postgres"]["environment"].items()}
    mounts = [str(v).split(":") for v in compose["services"]["postgres"]["volumes"]]
    postgres_env["BOOTSTRAP_SQL"] = next(os.path.join(root, host) for host, target, *_ in mounts if target == "/platform/bootstrap.sql")
    subprocess.run(
        ["bash", os.path.join(root, "deploy", "postgres", "init.sh")],
        env={**os.environ, **postgres_env, "POSTGRES_USER": superuser, "PGHOST": postgres_host, "PGPORT": postgres_port},
        check=True, capture_output=True)
    topics = compose["services"]["topics"]["command"]
    subprocess.run(
        [os.path.join(build, topics[0])] + [brokers if arg == "kafka:9092" else arg for arg in topics[1:]],
        env={"PATH": "/usr/bin:/bin", **{n: resolve(v, env) for n, v in compose["services"]["topics"].get("environment", {}).items()}},
        check=True, capture_output=True)
    problems, started, metrics_ports, absent = [], {}, {}, {}
    image = image_environment()
    for service in services:
        definition = compose["services"][service]
        port, metrics_ports[service] = free_port(), free_port()
        declared = {**image, **{n: resolve(v, env) for n, v in definition["environment"].items()}}
        # The one thing the rewrite hides: the port the service listens on must be the one compose checks and publishes.
        health = " ".join(definition.get("healthcheck", compose["x-service"]["healthcheck"])["test"])
        published = [str(mapping).split(":")[-1] for mapping in definition.get("ports", [])]
        if f":{declared.get('HTTP_PORT')}/" not in health or any(target != declared.get("HTTP_PORT") for target in published):
            problems.append(f"{service}: HTTP_PORT {declared.get('HTTP_PORT')} is not the healthcheck's ({health}) or the published {published}")
        if declared.get("METRICS_PORT") in (None, declared.get("HTTP_PORT")) or declared.get("METRICS_PORT") in published:
            problems.append(f"{service}: METRICS_PORT {declared.get('METRICS_PORT')} must be set, apart from HTTP_PORT and unpublished")
        if service in without:
            absent[service] = port
            continue
        environment = rewrite(declared, port, metrics_ports[service])
        command = definition["command"]
        log = open(os.path.join(build, f"compose-smoke-{service}.log"), "w")
        process = subprocess.Popen(
            [os.path.join(build, command[0])] + command[1:], env={"PATH": "/usr/bin:/bin", **environment}, stdout=log, stderr=log)
        started[service] = (process, port, log)
    for service, (process, port, log) in started.items():
        problem = wait_ready(port, process)
        if problem:
            problems.append(f"{service}: {problem} (log: {log.name})")
    # The journeys' stack skips the checks: the compose smoke phase makes them.
    if not problems and not serve_state:
        problems += metric_problems(started, metrics_ports, env)
    if not problems and not serve_state:
        try:
            asked, found = edge_problems({service: port for service, (_, port, _) in started.items()})
        except Exception as error:  # never skip the SIGTERM loop below: the services must not outlive the smoke
            asked, found = 0, [f"edge check could not run: {error}"]
        print(f"compose-smoke: edge check (X3): {asked} requests to protected operations by callers their rules refuse, {len(found)} answered 2xx")
        problems += found
    if serve_state and not problems:
        serve(serve_state, {**{service: port for service, (_, port, _) in started.items()}, **absent}, env)
    for service, (process, port, log) in started.items():
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                code = process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                process.kill()
                code = "no exit within 40 s"
            if code != 0 and not any(p.startswith(service) for p in problems):
                problems.append(f"{service}: SIGTERM ended it with {code} (log: {log.name})")
        log.close()
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"compose-smoke: {len(services)} services started from docker-compose.yml's commands and environment, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
