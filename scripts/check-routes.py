#!/usr/bin/env python3
"""Every route written in one place: the service's `openapi.yaml` (or, for the few routes outside the API contract
such as `/health` or the share pages, the one line of Swift that registers them).

The READMEs and `docs/` may name a route (`GET /v1/cities/{cityId}/weather`, `/v1/places?lat=...`), never list
what only a document should: each route they name must exist in a document or be registered in the code, so a
renamed or removed route leaves no stale mention behind. Exits 1 listing each problem."""
import glob
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
os.chdir(root)

DOCUMENT_PATH = re.compile(r'^  (/[^:\s]*):\s*$', re.M)
REGISTERED = re.compile(r'\.(?:get|post|put|patch|delete)\("((?:v1|share|dashboard|\.well-known|health|ready|metrics|openapi)[^"]*)"')
# A route as prose names it: in a code span, from its first segment up to a space, a query or the span's end.
MENTION = re.compile(r'`(?:(?:GET|POST|PUT|PATCH|DELETE) )?(/(?:v1|share|dashboard|\.well-known)(?:/[^`\s?#]*)?)')
PARAMETER = re.compile(r'^(\{[^}]*\}|:[A-Za-z]+)$')


def segments(path):
    return [segment for segment in path.strip("/").split("/") if segment]


def pattern(path):
    return tuple("{}" if PARAMETER.match(segment) else segment for segment in segments(path))


def matches(mentioned, known):
    """A mention matches a route of the same length whose fixed segments it repeats; a parameter takes anything."""
    return len(mentioned) == len(known) and all(k == "{}" or m == "{}" or m == k for m, k in zip(mentioned, known))


known = set()
for path in glob.glob("Services/*/openapi.yaml"):
    known |= {pattern(route) for route in DOCUMENT_PATH.findall(open(path).read())}
for path in glob.glob("Services/**/*.swift", recursive=True) + glob.glob("Shared/**/*.swift", recursive=True):
    known |= {pattern(route) for route in REGISTERED.findall(open(path).read())}

problems = []
documents = ["README.md"] + glob.glob("docs/**/*.md", recursive=True) + glob.glob("Services/*/README.md")
checked = 0
for path in sorted(documents):
    for number, line in enumerate(open(path), 1):
        for mention in MENTION.findall(line):
            # A prefix written as a family of routes (`/v1/admin/...`, `/v1/places/*`) names no single route.
            if mention.endswith(("...", "*", "…")) or mention.rstrip("/") in ("/v1", "/share", "/dashboard"):
                continue
            checked += 1
            mentioned = pattern(mention.rstrip(".,;:"))
            # A mention shorter than every route it starts (`/v1/admin`) names the family of routes under it.
            family = any(matches(mentioned, route[: len(mentioned)]) for route in known if len(route) > len(mentioned))
            if not family and not any(matches(mentioned, route) for route in known):
                problems.append(f"{path}:{number}: names {mention}, which no openapi.yaml holds and no code registers")

for problem in problems:
    print(problem, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"routes: {checked} mentions in {len(documents)} documents, each a route of a document or the code")
