import Foundation
import HTTPTypes
import Testing

@testable import PlatformClient

/// The transport's request address: a service's base URL (with a path prefix, behind a gateway) and the
/// operation's path and query, as the stock transport joined them.
@Suite("PlatformClient: the whole-body transport's addresses")
struct WholeBodyTransportTests {
    func url(_ base: String, _ path: String) throws -> String {
        try WholeBodyTransport.url(of: HTTPRequest(method: .get, scheme: nil, authority: nil, path: path), on: try #require(URL(string: base)))
    }

    @Test("X6: base URL, operation path and query joined; percent-encoding kept")
    func addresses() throws {
        #expect(try url("http://127.0.0.1:8081", "/v1/cities?prefix=bang&page=2") == "http://127.0.0.1:8081/v1/cities?prefix=bang&page=2")
        #expect(try url("https://api.example.com/weather", "/v1/cities/1609350") == "https://api.example.com/weather/v1/cities/1609350")
        #expect(try url("http://127.0.0.1:8081", "/v1/cities?prefix=s%C3%A3o") == "http://127.0.0.1:8081/v1/cities?prefix=s%C3%A3o")
        #expect(try url("http://127.0.0.1:8081", "/v1/places/a%2Fb") == "http://127.0.0.1:8081/v1/places/a%2Fb")
    }
}
