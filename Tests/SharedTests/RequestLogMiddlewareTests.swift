import Testing

@testable import Shared

@Suite("Request log lines keep secrets out")
struct RequestLogMiddlewareTests {
    @Test(
        "X1: values of secret-carrying query parameters are redacted, the rest kept",
        arguments: [
            ("token=abc", "token=REDACTED"),
            ("q=Berl&token=abc&lang=de", "q=Berl&token=REDACTED&lang=de"),
            ("Token=abc&CODE=123456", "Token=REDACTED&CODE=REDACTED"),
            ("%74oken=abc", "%74oken=REDACTED"),
            ("id_token=a.b.c&x=", "id_token=REDACTED&x="),
            ("token", "token"),
            ("a=1&&b=2", "a=1&&b=2"),
            ("token=a=b", "token=REDACTED"),
        ])
    func test_X1_redaction(query: String, expected: String) {
        #expect(RequestLogMiddleware.redacted(query: query) == expected)
    }
}
