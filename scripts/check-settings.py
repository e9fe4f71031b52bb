#!/usr/bin/env python3
"""Every setting written in one place: the type that reads it.

- A service reads its settings only in its `Config/` type, and every variable that type (or a platform type in
  `Shared/`) reads is named in a comment of the file that reads it: that comment is the setting's one description.
- The READMEs and `docs/` name only settings something reads (the services, the platform, the tests, the tools,
  the scripts, the deployments) or a library's standard variables: a renamed or removed setting leaves no stale
  mention behind.
Exits 1 listing each problem."""
import glob
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)

READ = re.compile(r'environment\.[A-Za-z]+\(\s*"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"')
LITERAL = re.compile(r'"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"')
NAME = re.compile(r'\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b')
MENTION = re.compile(r'`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`')
# Read by libraries or the system, not by this code: OpenTelemetry's standard variables, the dynamic loader.
STANDARD = re.compile(r'^(OTEL_[A-Z_]+|LD_PRELOAD)$')


def swift_files(*tops):
    return [f for top in tops for f in glob.glob(f"{top}/**/*.swift", recursive=True)]


problems = []
for path in swift_files("Services", "Shared"):
    text = open(path).read()
    reads = set(READ.findall(text))
    if not reads:
        continue
    if path.startswith("Services/") and "/Config/" not in path:
        problems += [f"{path}: reads {name} outside its Config type" for name in sorted(reads)]
        continue
    comments = "\n".join(line for line in text.split("\n") if line.strip().startswith("//"))
    problems += [f"{path}: reads {name} but no comment of the file names it" for name in sorted(reads) if name not in comments]

known = set()
for path in swift_files("Services", "Shared", "Tests", "Tools", "Benchmarks", "Clients"):
    known |= set(LITERAL.findall(open(path).read()))
others = glob.glob("scripts/*") + glob.glob(".ci/*") + glob.glob("deploy/**/*", recursive=True) + ["docker-compose.yml", "Dockerfile"]
for path in others:
    if os.path.isfile(path):
        known |= set(NAME.findall(open(path, errors="ignore").read()))
documents = ["README.md"] + glob.glob("docs/**/*.md", recursive=True) + glob.glob("Services/*/README.md")
for path in sorted(documents):
    for name in sorted(set(MENTION.findall(open(path).read()))):
        if name not in known and not STANDARD.match(name):
            problems.append(f"{path}: names {name}, which nothing reads")

for problem in problems:
    print(problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"settings: read in their Config types and described there; {len(documents)} documents name only settings that exist")
