/// The auth API, as served at `/openapi.yaml`. Kept in code so the binary is self-contained (no resource bundle
/// to ship beside it); the tests validate it against the OpenAPI schema and call every documented operation.
enum AuthOpenAPI {
    static let yaml = [header, components, paths].joined(separator: "\n")

    private static let header = #"""
openapi: 3.1.0
info:
  title: auth
  version: 1.0.0
  description: >
    Accounts, sessions and recovery for the admin dashboard, the hotel-survey app and the horoscope app
    (requirements U1-U7). Errors always have the shape {"error": {"code", "message", "details"}}.
servers:
  - url: http://127.0.0.1:8084
"""#
}
