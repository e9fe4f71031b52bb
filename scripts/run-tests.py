#!/usr/bin/env python3
"""Runs the test binary (swift-testing) in a session of its own and watches its event stream. A run in which no
test starts or ends for STALL seconds, or that takes longer than LIMIT, is taken for hung: the tests that had
started and not ended are named, the binary's threads and the processes are printed, the session (services,
browsers and sinks the tests started) is stopped, and every test that had not ended (the hung ones and those not
started yet) runs once more. The run fails if a test failed before the hang, or if the second run fails or hangs;
otherwise it passes with the hang printed ("HUNG:"), so a rare hang is diagnosed, not hidden.

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
        self.ended: set[str] = set()
        self.failed: set[str] = set()  # tests with an issue recorded that is not a known one
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
                self.ended.add(test)
            elif payload.get("kind") == "issueRecorded" and not (payload.get("issue") or {}).get("isKnown", False):
                self.failed.add(test)

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


def filter_for(tests) -> str:
    # "Module.Suite/name()/File.swift:1:2" -> the function's id without its source location, as --filter and
    # --skip take it.
    return "|".join(re.escape(test.rsplit("/", 1)[0]) for test in sorted(tests))


def main() -> int:
    limit, stall, binary, arguments = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], sys.argv[4:]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    first = Run(binary, arguments)
    status, unfinished = first.watch(limit, stall)
    if status is not None:
        return status
    if not unfinished:
        log("hung with no test running (in the runner itself); failing")
        return 124
    failed_before = sorted(first.failed)
    # The same run again without the tests that ended: the hung ones get a second chance, and those that had not
    # started yet get their first.
    skip = ["--skip", filter_for(first.ended)] if first.ended else []
    log(f"running the {len(unfinished)} hung test(s) and those not started yet once more")
    status, again = Run(binary, [*arguments, *skip]).watch(limit, stall)
    if status is None:
        log(f"they hung again: {again}")
        return 124
    log(f"the second run {'passed' if status == 0 else 'failed'} (exit {status}); the hang above is a bug to find")
    if failed_before:
        log(f"{len(failed_before)} test(s) had failed before the hang: " + ", ".join(t.rsplit("/", 1)[0] for t in failed_before))
        return status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
