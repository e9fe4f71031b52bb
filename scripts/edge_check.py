"""X3 at the edge, on the running services: every operation an `openapi.yaml` marks with `x-access` (`signed-in`,
`member`, `trusted`, `partner`, `admin`, `signature`) is asked, by a caller its rule refuses, through its normal path and
through every other spelling of it (`//x`, `/x//y`, `/./x`, `/x/./y`, `/x/a/../y`, `%2F` for a separator, `/V1`,
a trailing slash). None may answer 2xx. Tokens come from auth as an app gets them (a guest session, a survey
account's login), never minted here; a request body is built from the operation's schema, so a spelling that
slipped past an access rule would reach the handler with something it could act on (the webhook, a favourite).
The operations come from the documents the services serve, so a new route is covered without a new line here.

Used by compose-smoke.py once the services are ready: `edge_problems(ports)` returns what it found wrong."""
import base64
import datetime
import http.client
import json
import secrets

import yaml

# Who is refused, per rule: the caller sent for it and what the rule is meant to stop.
# Since install accounts (U8) every account an app can get is a member (a horoscope guest is an install account): `member` and
# `signed-in` both refuse whoever comes without a token. `trusted` refuses a new install account (the guest: its
# token's `trusted` claim is false until INSTALL_TRUST_AFTER_HOURS, which the smoke stack leaves at its default).
REFUSED_CALLER = {
    "signed-in": "anonymous", "member": "anonymous", "trusted": "guest", "partner": "member", "admin": "member", "signature": "guest",
}


def request(
    port: int, method: str, path: str, body: object | None = None, token: str | None = None, extra: dict | None = None
) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)
    headers = {"Content-Type": "application/json", **(extra or {})}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        # http.client sends the path as given: no normalisation on the way.
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = connection.getresponse()
        # A stream (the admin live stream) never ends by itself: its status line is the answer.
        if answer.getheader("Content-Type", "").startswith("text/event-stream"):
            return answer.status, b"(an event stream)"
        return answer.status, answer.read()
    finally:
        connection.close()


def account_id(token: str) -> str:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]


def callers(auth_port: int) -> dict[str, str | None]:
    """A horoscope guest session (an install account) and a survey member, from auth as the apps get them."""
    status, body = request(auth_port, "POST", "/v1/horoscope/guest")
    assert status == 200, f"auth answered a guest session with {status}: {body[:200]!r}"
    guest = json.loads(body)["accessToken"]
    email, pin = f"edge-{secrets.token_hex(4)}@example.com", "7g4k"
    status, body = request(auth_port, "POST", "/v1/survey/signup", {"email": email, "pin": pin, "pinConfirmation": pin})
    assert status == 201, f"auth answered a survey sign-up with {status}: {body[:200]!r}"
    status, body = request(auth_port, "POST", "/v1/survey/login", {"email": email, "pin": pin})
    assert status == 200, f"auth answered a survey login with {status}: {body[:200]!r}"
    return {"anonymous": None, "guest": guest, "member": json.loads(body)["accessToken"]}


class Document:
    def __init__(self, text: str):
        self.doc = yaml.safe_load(text)

    def resolve(self, node: dict) -> dict:
        while isinstance(node, dict) and "$ref" in node:
            target = self.doc
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            node = target
        return node

    def sample(self, schema: dict, subject: str, depth: int = 0) -> object:
        """The smallest value the schema accepts, with ids pointing at the caller's own account where they can."""
        schema = self.resolve(schema)
        if depth > 6:
            return None
        for combinator in ("allOf", "oneOf", "anyOf"):
            if combinator in schema:
                parts = [self.resolve(part) for part in schema[combinator]]
                if combinator == "allOf":
                    merged = {"type": "object", "properties": {}, "required": []}
                    for part in parts:
                        merged["properties"].update(part.get("properties", {}))
                        merged["required"] += part.get("required", [])
                    return self.sample(merged, subject, depth + 1)
                return self.sample(parts[0], subject, depth + 1)
        if "enum" in schema:
            return schema["enum"][0]
        kind = schema.get("type", "object")
        if isinstance(kind, list):
            kind = next(k for k in kind if k != "null")
        if kind == "object":
            properties = schema.get("properties", {})
            return {name: self.sample(properties[name], subject, depth + 1) for name in schema.get("required", []) if name in properties}
        if kind == "array":
            return [self.sample(schema.get("items", {}), subject, depth + 1) for _ in range(schema.get("minItems", 0))]
        if kind == "integer":
            return max(schema.get("minimum", 1), 1)
        if kind == "number":
            return max(schema.get("minimum", 1), 1)
        if kind == "boolean":
            return True
        fmt = schema.get("format", "")
        if fmt == "uuid":
            return subject
        if fmt == "date-time":
            return (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
        if fmt == "date":
            return (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
        if fmt == "email":
            return "edge@example.com"
        if fmt == "uri":
            return "https://example.com/"
        return "x" * max(schema.get("minLength", 1), 1)

    def operations(self):
        for template, item in self.doc.get("paths", {}).items():
            shared = item.get("parameters", [])
            for method, operation in item.items():
                if method in ("get", "put", "post", "delete", "patch") and "x-access" in operation:
                    yield template, method.upper(), operation, shared + operation.get("parameters", [])

    def concrete_path(self, template: str, parameters: list, subject: str) -> str:
        path = template
        for parameter in map(self.resolve, parameters):
            if parameter.get("in") == "path":
                value = self.sample(parameter.get("schema", {}), subject)
                path = path.replace("{" + parameter["name"] + "}", str(value if value != "x" else "edge"))
        return path

    def body(self, operation: dict, subject: str) -> object | None:
        content = self.resolve(operation.get("requestBody", {})).get("content", {})
        if "application/json" not in content:
            return None
        return self.sample(content["application/json"].get("schema", {}), subject)


def spellings(path: str) -> list[str]:
    """The normal path and the spellings a router that skips empty segments (or decodes) would run as it."""
    segments = path.strip("/").split("/")
    rest = "/".join(segments[1:])
    return [
        path,
        "/" + path,
        f"/{segments[0]}//{rest}",
        "/." + path,
        f"/{segments[0]}/./{rest}",
        f"/{segments[0]}/a/../{rest}",
        f"/{segments[0]}%2F{rest}",
        f"/{segments[0]}%2f{rest}",
        f"/{segments[0].upper()}/{rest}",
        path + "/",
    ]


def edge_problems(ports: dict[str, int]) -> tuple[int, list[str]]:
    """(requests made, what answered 2xx to a caller its rule refuses)."""
    tokens = callers(ports["auth"])
    subject = account_id(tokens["guest"])
    problems, asked = [], 0
    for service, port in ports.items():
        status, text = request(port, "GET", "/openapi.yaml")
        assert status == 200, f"{service} answered /openapi.yaml with {status}"
        document = Document(text.decode())
        for template, method, operation, parameters in document.operations():
            rule = operation["x-access"]
            if rule not in REFUSED_CALLER:
                problems.append(f"{service} {method} {template}: unknown x-access {rule!r}")
                continue
            caller = REFUSED_CALLER[rule]
            path = document.concrete_path(template, parameters, subject)
            body = document.body(operation, subject)
            # A made-up signature of the right shape: the header is there, its value proves nothing.
            extra = {"X-Signature": "sha256=" + "0" * 64} if rule == "signature" else None
            for spelling in spellings(path):
                asked += 1
                try:
                    status, answer = request(port, method, spelling, body, tokens[caller], extra)
                except OSError as error:
                    problems.append(f"{service} {method} {spelling}: no answer ({error})")
                    continue
                if 200 <= status < 300:
                    problems.append(f"{service} {method} {spelling} ({rule}) answered {status} to a {caller} caller: {answer[:160]!r}")
                elif spelling != path and not answer.lstrip().startswith(b"{"):
                    problems.append(f"{service} {method} {spelling} answered {status} without a JSON error body")
    return asked, problems
