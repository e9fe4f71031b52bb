#!/usr/bin/env python3
"""Each service's rules and use cases are a module of their own, `<Module>Core` (`Domain/` and `UseCases/`), that
knows nothing of Postgres, HTTP, the broker or the generated contract.

SwiftPM lets a target import any module already built, so the package's dependency lists alone do not hold the
line: this check reads every core source's imports. A service still waiting for its core is named in `PENDING`,
which only shrinks; it fails when a pending service already has one. Exits 1 listing each problem."""
import glob
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)

# What a core may never import: storage, the web, the broker, the generated contract and its runtime.
FORBIDDEN = re.compile(
    r"^(PostgresNIO|PlatformPostgres|PlatformHTTP|PlatformRuntime|PlatformKafka|Hummingbird\w*|NIO\w*|"
    r"AsyncHTTPClient|HTTPTypes|OpenAPI\w*|JWTKit|\w+Contract)$"
)
IMPORT = re.compile(r"^\s*(?:@\w+\s+)*import\s+(?:(?:struct|enum|class|protocol|func|var|let)\s+)?(\w+)", re.M)
CORE_FOLDERS = ("Domain", "UseCases")

# Services whose Domain/ and UseCases/ are still part of the service module, each to be split as the others were.
PENDING: set[str] = set()

manifest = open("Package.swift").read()
cores = set(re.findall(r'^\s*"(\w+)": \[[^\n]*\],?\s*$', manifest.split("let coreDependencies")[1].split("]\n\n")[0], re.M))
modules = dict(re.findall(r'\("([a-z-]+)", "(\w+)", "\w+"\)', manifest))

problems = []
for executable, module in sorted(modules.items()):
    has_core = module in cores
    if executable in PENDING:
        if has_core:
            problems.append(f"{executable}: has {module}Core now; take it out of PENDING in scripts/check-cores.py")
        continue
    if not has_core:
        problems.append(f"{executable}: no {module}Core target in Package.swift's coreDependencies")
    for folder in CORE_FOLDERS:
        for path in sorted(glob.glob(f"Services/{executable}/{folder}/**/*.swift", recursive=True)):
            for name in IMPORT.findall(open(path).read()):
                if FORBIDDEN.match(name):
                    problems.append(f"{path}: imports {name}, which a core may not")

for problem in problems:
    print(problem)
if problems:
    sys.exit(1)
done = len(modules) - len(PENDING)
print(f"cores: {done} of {len(modules)} services have one, none imports storage, HTTP or a contract")
