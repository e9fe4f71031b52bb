#!/usr/bin/env python3
"""The shared API components (Shared/OpenAPI/shared-components.yaml) in every contract-first service's
openapi.yaml. swift-openapi-generator reads one file per service, so each document holds a copy of the
shared entries; this script is the one way they are written (--write) and the test command's check that
no copy drifted (--check, the default). It also validates each document as OpenAPI 3.1, and checks that every
operation that requires a bearer token names its access rule in `x-access`, which the edge check
(scripts/edge_check.py) reads to try each protected route with a caller the rule refuses."""
import pathlib
import sys

import yaml
from openapi_spec_validator import validate

root = pathlib.Path(__file__).resolve().parent.parent
shared = yaml.safe_load((root / "Shared/OpenAPI/shared-components.yaml").read_text())["components"]
documents = sorted(root.glob("Services/*/openapi.yaml"))


def check(path: pathlib.Path) -> list[str]:
    document = yaml.safe_load(path.read_text())
    problems = []
    if document.get("openapi") != "3.1.0":
        problems.append(f"{path}: openapi is {document.get('openapi')!r}, not '3.1.0'")
    try:
        validate(document)
    except Exception as error:  # the validator's own exception types vary by version
        problems.append(f"{path}: not a valid OpenAPI document: {error}")
    problems += access_problems(path, document)
    components = document.get("components", {})
    for section, entries in shared.items():
        for name, entry in entries.items():
            if components.get(section, {}).get(name) != entry:
                problems.append(f"{path}: components.{section}.{name} differs from Shared/OpenAPI/shared-components.yaml")
    return problems


ACCESS_RULES = {"signed-in", "member", "trusted", "partner", "admin", "signature"}


def access_problems(path: pathlib.Path, document: dict) -> list[str]:
    """An operation with a security requirement and no `x-access`, or with a rule the edge check does not know,
    would be left out of the edge check: a protected route covered by no test of its spellings."""
    problems = []
    default_security = document.get("security", [])
    for template, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if method not in ("get", "put", "post", "delete", "patch") or not isinstance(operation, dict):
                continue
            rule = operation.get("x-access")
            requirements = operation.get("security", default_security)
            # `{}` among the requirements: anonymous callers are allowed too (a token only adds to the answer).
            secured = bool(requirements) and {} not in requirements
            if rule is not None and rule not in ACCESS_RULES:
                problems.append(f"{path}: {method.upper()} {template}: x-access {rule!r} is not one of {sorted(ACCESS_RULES)}")
            elif secured and rule is None:
                problems.append(f"{path}: {method.upper()} {template} requires a token but names no x-access rule")
    return problems


def write(path: pathlib.Path) -> None:
    """Replaces each shared entry's block in the document's text with the shared file's text of it."""
    shared_lines = (root / "Shared/OpenAPI/shared-components.yaml").read_text().splitlines()
    lines = path.read_text().splitlines()
    for section, entries in shared.items():
        for name in entries:
            block = _block(shared_lines, section, name)
            start, end = _span(lines, section, name)
            if start is None:
                raise SystemExit(f"{path}: add components.{section}.{name} once by hand; --write then keeps it current")
            lines[start:end] = block
    path.write_text("\n".join(lines) + "\n")


def _span(lines, section, name):
    in_section = False
    for index, line in enumerate(lines):
        if line == f"  {section}:":
            in_section = True
        elif in_section and line.startswith("  ") and not line.startswith("   "):
            in_section = False
        elif in_section and (line == f"    {name}:" or line.startswith(f"    {name}: ")):
            end = index + 1
            while end < len(lines) and (lines[end].startswith("      ") or lines[end] == ""):
                end += 1
            return index, end
    return None, None


def _block(lines, section, name):
    start, end = _span(lines, section, name)
    return lines[start:end]


if __name__ == "__main__":
    if "--write" in sys.argv:
        for document in documents:
            write(document)
    problems = [problem for document in documents for problem in check(document)]
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"openapi-shared: {len(documents)} contract-first documents, {len(problems)} problems")
    sys.exit(1 if problems else 0)
