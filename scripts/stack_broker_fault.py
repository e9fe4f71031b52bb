#!/usr/bin/env python3
"""The operator's broker fault on the local stack (X5), as an operator meets it (X2): a second stack is started with
`scripts/stack.sh start` (its own state directory and free ports), a survey member marks favourite cities and
warning-detector applies them; the broker is stopped with SIGTERM then SIGKILL; during the outage the member
unmarks two of them and marks two more (weather-fetcher keeps them in its outbox); `scripts/stack.sh start` is run
once; warning-detector must then hold exactly the member's favourites within 60 s of that call's start, no service
may have died, and its applied count must equal the distinct changes made (more would be a change applied twice).

Prints one line `RESULT {json}` (events, lost, doubled, recovery seconds, note or error) and exits 0 when the
scenario could be run at all; the fault suite (Tests/FaultTests) reads that line into its table.
Usage: stack_broker_fault.py (needs the services built in .build/debug)."""
import glob
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

from edge_check import account_id, request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
services = ["weather-fetcher", "warning-detector", "places-importer", "auth", "analytics-aggregator", "appointment-booker"]
# Berlin, Paris, Prague, Madrid, Rome (GeoNames ids of the city catalogue).
before_outage = [2950159, 2988507, 3067696]
unmarked_in_outage = [2950159, 2988507]
marked_in_outage = [3117735, 3169070]
expected = {3067696, 3117735, 3169070}
distinct_changes = len(before_outage) + len(unmarked_in_outage) + len(marked_in_outage)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Stack:
    def __init__(self) -> None:
        self.state = tempfile.mkdtemp(prefix="stack-fault-")
        self.step = "starting the stack"
        self.ports = dict(zip(services, (free_port() for _ in services)))
        self.metrics_ports = dict(zip(services, (free_port() for _ in services)))
        self.postgres_port = free_port()
        self.kafka_port = free_port()
        self.env = {
            **os.environ,
            "STATE_DIR": self.state,
            "STACK_POSTGRES_PORT": str(self.postgres_port),
            "STACK_KAFKA_PORT": str(self.kafka_port),
            "STACK_MAIL_PORT": str(free_port()),
            "STACK_SERVICE_PORTS": ",".join(str(self.ports[s]) for s in services),
            "STACK_METRICS_PORTS": ",".join(str(self.metrics_ports[s]) for s in services),
            # The suite has built everything already; a build here would only compete for the two cores.
            "STACK_SKIP_BUILD": "1",
        }

    def run(self, *arguments: str, limit: int = 300) -> float:
        started = time.monotonic()
        result = subprocess.run(
            ["bash", os.path.join(root, "scripts/stack.sh"), *arguments], env=self.env, cwd=root,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=limit)
        if result.returncode != 0:
            # librdkafka's own lines (`%3|...`) would bury what the script said.
            said = "\n".join(line for line in result.stdout.decode(errors="replace").splitlines() if not line.startswith("%"))
            raise RuntimeError(f"stack.sh {' '.join(arguments)} exited {result.returncode}:\n{said[-3000:]}")
        return time.monotonic() - started

    def pid(self, component: str) -> int:
        with open(os.path.join(self.state, f"{component}.pid")) as f:
            return int(f.read().strip())

    def alive(self, pid: int) -> bool:
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False

    def psql(self, sql: str) -> str:
        binary = sorted(glob.glob("/usr/lib/postgresql/*/bin/psql"))[-1]
        return subprocess.run(
            [binary, "-h", "127.0.0.1", "-p", str(self.postgres_port), "-U", "postgres", "-d", "platform", "-tAc", sql],
            check=True, stdout=subprocess.PIPE, timeout=30).stdout.decode().strip()

    def favourites(self, user: str) -> set[int]:
        rows = self.psql(f"SELECT city_id FROM warning_detector.favourites WHERE user_id = '{user}'")
        return {int(line) for line in rows.splitlines() if line}

    def applied(self) -> int:
        """warning-detector's applied count of the user-cities topic, from its /metrics."""
        _, body = request(self.metrics_ports["warning-detector"], "GET", "/metrics")
        total = 0
        for line in body.decode().splitlines():
            if line.startswith("events_consumed_total{") and 'topic="weather.user-cities"' in line and 'outcome="applied"' in line:
                total += int(float(line.rsplit(" ", 1)[1]))
        return total

    def logs(self, service: str) -> str:
        try:
            with open(os.path.join(self.state, "logs", f"{service}.log"), errors="replace") as f:
                return f.read()[-2000:]
        except OSError:
            return ""

    def stop(self) -> None:
        try:
            self.run("stop", limit=120)
        finally:
            # STACK_FAULT_KEEP=1 keeps the state directory (logs above all) for a look afterwards.
            if os.environ.get("STACK_FAULT_KEEP") == "1":
                print(f"state kept in {self.state}", file=sys.stderr)
            else:
                shutil.rmtree(self.state, ignore_errors=True)


def member_token(stack: Stack) -> tuple[str, str]:
    email, pin = f"fault-{secrets.token_hex(4)}@example.com", "7g4k"
    port = stack.ports["auth"]
    status, body = request(port, "POST", "/v1/survey/signup", {"email": email, "pin": pin, "pinConfirmation": pin})
    assert status == 201, f"auth answered a survey sign-up with {status}: {body[:200]!r}"
    status, body = request(port, "POST", "/v1/survey/login", {"email": email, "pin": pin})
    assert status == 200, f"auth answered a survey login with {status}: {body[:200]!r}"
    token = json.loads(body)["accessToken"]
    return token, account_id(token)


def favourite(stack: Stack, token: str, city: int, mark: bool) -> None:
    status, body = request(stack.ports["weather-fetcher"], "PUT" if mark else "DELETE", f"/v1/me/favourites/{city}", token=token)
    assert status in (200, 204), f"weather-fetcher answered a favourite change with {status}: {body[:200]!r}"


def wait_for(condition, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.5)
    return condition()


def scenario(stack: Stack) -> dict:
    started = stack.run("start")
    print(f"stack started in {started:.0f} s", file=sys.stderr)
    stack.step = "signing up a survey member"
    token, user = member_token(stack)
    stack.step = "marking favourites before the outage"
    for city in before_outage:
        favourite(stack, token, city, True)
    if not wait_for(lambda: stack.favourites(user) == set(before_outage), 60):
        raise RuntimeError(f"warning-detector never applied the first favourites: {stack.favourites(user)}")
    pids = {service: stack.pid(service) for service in services}

    stack.step = "stopping the broker"
    broker = stack.pid("tansu")
    os.kill(broker, signal.SIGTERM)
    if not wait_for(lambda: not stack.alive(broker), 3):
        os.kill(broker, signal.SIGKILL)
        wait_for(lambda: not stack.alive(broker), 10)
    stack.step = "changing favourites during the outage"
    for city in unmarked_in_outage:
        favourite(stack, token, city, False)
    for city in marked_in_outage:
        favourite(stack, token, city, True)

    restarted = time.monotonic()
    stack.step = "stack.sh start after the outage"
    stack.run("start")
    stack.step = "waiting for warning-detector"
    applied = wait_for(lambda: stack.favourites(user) == expected, 60)
    recovery = time.monotonic() - restarted
    final = stack.favourites(user)
    time.sleep(2)  # late duplicates show in the count
    count = stack.applied()
    dead = [service for service, pid in pids.items() if not stack.alive(pid) or stack.pid(service) != pid]
    result = {
        "events": distinct_changes,
        "lost": len(expected - final) + len((set(before_outage) - expected) & final),
        "doubled": max(0, count - distinct_changes),
        "recovery": round(recovery, 1),
        "note": f"stack.sh start once; {count} applied; favourites {sorted(final)}",
    }
    if dead:
        result["error"] = f"services died or were restarted: {dead}\n" + "\n".join(stack.logs(s) for s in dead)
    elif recovery > 60:
        result["error"] = f"favourites as written only {recovery:.0f} s after `stack.sh start` began (the issue allows 60 s)"
    elif not applied:
        result["error"] = f"favourites not as written within 60 s: {sorted(final)}, expected {sorted(expected)}\n{stack.logs('warning-detector')}"
    elif count < distinct_changes:
        result["error"] = f"warning-detector applied {count} changes, {distinct_changes} were made"
    return result


def main() -> int:
    stack = Stack()
    try:
        result = scenario(stack)
    except Exception as error:  # the suite shows it in the table's row, with what each service said last
        alive = {s: stack.alive(stack.pid(s)) if os.path.exists(os.path.join(stack.state, f"{s}.pid")) else None for s in services}
        logs = "\n".join(f"--- {s} (alive: {alive[s]}) ---\n{stack.logs(s)[-1200:]}" for s in services)
        result = {
            "events": distinct_changes, "lost": 0, "doubled": 0, "recovery": 0,
            "error": f"{type(error).__name__} at step '{stack.step}': {error}\n{logs}"}
    finally:
        try:
            stack.stop()
        except Exception as error:
            print(f"stack.sh stop failed: {error}", file=sys.stderr)
    print("RESULT " + json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
