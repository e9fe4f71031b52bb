import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// An identity provider: signs ID tokens and serves its public keys as a JWKS over real HTTP.
public final class FakeIdentityProvider: Sendable {
    public let port: Int
    public let issuer = "https://idp.test"
    private let current: Mutex<(kid: String, key: EdDSA.PrivateKey)>
    /// Whether the JWKS names each key's algorithm (many providers leave `alg` out).
    public let publishesAlgorithm: Bool

    public init(publishesAlgorithm: Bool = true) {
        self.publishesAlgorithm = publishesAlgorithm
        port = freePort()
        current = Mutex(("k1", try! EdDSA.PrivateKey(curve: .ed25519)))
    }

    /// For a running stack configured with the provider before it started: its port and key (PKCS #8 PEM), which
    /// the stack may have cached from an earlier run.
    public init(port: Int, keyPEM: String) throws {
        publishesAlgorithm = true
        self.port = port
        current = Mutex(("k1", try EdDSA.PrivateKey(pem: keyPEM)))
    }

    public func rotate() throws {
        let key = try EdDSA.PrivateKey(curve: .ed25519)
        current.withLock { $0 = ("k2", key) }
    }

    public var jwks: String {
        let (kid, key) = current.withLock { $0 }
        let x = key.publicKey.rawRepresentation.base64URLEncodedString()
        let alg = publishesAlgorithm ? #""alg":"EdDSA","# : ""
        // An encryption key and a key without `kid` beside it must not spoil the set.
        return #"{"keys":[{"kty":"OKP","crv":"Ed25519",\#(alg)"use":"sig","kid":"\#(kid)","x":"\#(x)"},"#
            + #"{"kty":"OKP","crv":"X25519","use":"enc","kid":"e1","x":"\#(x)"},{"kty":"OKP","crv":"Ed25519","x":"\#(x)"}]}"#
    }

    public func idToken(
        subject: String, audience: [String] = ["horoscope-app"], azp: String? = nil, nonce: String? = nil, expiresIn: TimeInterval = 300,
        key: EdDSA.PrivateKey? = nil
    ) async throws -> String {
        let (kid, currentKey) = current.withLock { $0 }
        let keys = JWTKeyCollection()
        await keys.add(eddsa: key ?? currentKey, kid: JWKIdentifier(string: kid))
        let claims = OIDCClaims(
            iss: IssuerClaim(value: issuer), sub: SubjectClaim(value: subject), aud: AudienceClaim(value: audience),
            exp: ExpirationClaim(value: Date().addingTimeInterval(expiresIn)), name: "Test User", nonce: nonce, azp: azp)
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    public func serve<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        let router = Router()
        router.get("jwks.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: self.jwks)))
        }
        var logger = Logger(label: "idp")
        logger.logLevel = .critical  // a cut connection at the deadline logs harmless errors
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let serverTask = Task { try await group.run() }
        defer { serverTask.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        return try await stoppingGracefully(group, running: serverTask, body)
    }
}

struct OIDCClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var name: String
    var nonce: String?
    var azp: String?
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
