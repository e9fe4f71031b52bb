#!/usr/bin/env python3
"""Runs the test binary (swift-testing) in a session of its own and watches its event stream. A run in which no
test starts or ends for STALL seconds, or that takes longer than LIMIT, is taken for hung: the tests that had
started and not ended are named, the binary's threads and the processes are printed, the session (services,
browsers and sinks the tests started) is stopped, and those tests alone are run once more. The run fails if they
fail or hang again; if they pass, it passes with the hang printed, so a rare hang is diagnosed, not hidden.

Usage: run-tests.py LIMIT STALL BINARY [ARGUMENTS...]"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time


def log(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


class Run:
    def __init__(self, binary: str, arguments: list[str]):
        handle, self.events = tempfile.mkstemp(prefix="test-events-", suffix=".jsonl")
        os.close(handle)
        self.process = subprocess.Popen(
            [binary, *arguments, "--event-stream-output-path", self.events, "--event-stream-version", "0"], start_new_session=True)
        self.offset = 0
        self.started: dict[str, str] = {}  # test function id -> display name, while it runs
        self.last_progress = time.monotonic()

    def read_events(self) -> None:
        with open(self.events, "rb") as stream:
            stream.seek(self.offset)
            data = stream.read()
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        for line in complete.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            payload = record.get("payload", {})
            test = payload.get("testID")
            if record.get("kind") != "event" or not test:
                continue
            self.last_progress = time.monotonic()
            # Functions only ("Module.Suite/name()/File.swift:line:column"); suites start and end around them.
            if "/" not in test:
                continue
            if payload.get("kind") == "testStarted":
                text = (payload.get("messages") or [{}])[0].get("text", test)
                self.started[test] = text
            elif payload.get("kind") in ("testEnded", "testSkipped"):
                self.started.pop(test, None)

    def diagnose_and_stop(self) -> None:
        pid = self.process.pid
        subprocess.run(["timeout", "30", "gdb", "-p", str(pid), "-batch", "-ex", "call (int)fflush(0)"], capture_output=True)
        dump = subprocess.run(["timeout", "120", "gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 16"], capture_output=True, text=True)
        print("\n".join(line for line in dump.stdout.splitlines() if re.match(r"^(Thread|#\d+ )", line)), file=sys.stderr)
        print(subprocess.run(["ps", "-ef", "--forest"], capture_output=True, text=True).stdout, file=sys.stderr)
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def watch(self, limit: float, stall: float) -> tuple[int | None, list[str]]:
        """The exit status, or None and the unfinished tests when it hung."""
        started = time.monotonic()
        while True:
            try:
                status = self.process.wait(timeout=5)
                self.read_events()
                return status, []
            except subprocess.TimeoutExpired:
                pass
            self.read_events()
            now = time.monotonic()
            if now - self.last_progress > stall or now - started > limit:
                why = f"no test started or ended for {now - self.last_progress:.0f} s" if now - self.last_progress > stall else f"still running after {limit:.0f} s"
                unfinished = sorted(self.started)
                log(f"taken for hung ({why}); unfinished tests:")
                for test in unfinished:
                    print(f"  HUNG: {self.started[test]} [{test}]", file=sys.stderr)
                self.diagnose_and_stop()
                return None, unfinished


def filter_for(tests: list[str]) -> str:
    # "Module.Suite/name()/File.swift:1:2" -> the function's id without its source location, as --filter takes it.
    return "|".join(re.escape(test.rsplit("/", 1)[0]) for test in tests)


def main() -> int:
    limit, stall, binary, arguments = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    status, unfinished = Run(binary, arguments).watch(limit, stall)
    if status is not None:
        return status
    if not unfinished:
        log("hung with no test running (in the runner itself); failing")
        return 124
    # Only the hung tests again, without the run's other filters (this one names them exactly).
    log(f"running the {len(unfinished)} hung test(s) once more, alone")
    status, again = Run(binary, ["--testing-library", "swift-testing", "--filter", filter_for(unfinished)]).watch(limit, stall)
    if status is None:
        log(f"they hung again: {again}")
        return 124
    log(f"the hung test(s) {'passed' if status == 0 else 'failed'} when run again (exit {status}); the hang above is a bug to find")
    return status


if __name__ == "__main__":
    sys.exit(main())
