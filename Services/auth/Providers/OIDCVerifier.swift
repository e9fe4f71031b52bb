import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Verifies OpenID Connect ID tokens (U5: "login through an external identity provider") against the provider's
/// JWKS fetched from a configured URL. Keys are cached for `cacheLifetime`; a token signed with a key the cache
/// does not know triggers one refetch (key rotation), at most every `minimumRefetchInterval`.
actor OIDCVerifier {
    struct Configuration: Sendable {
        var jwksURL: URL
        var issuer: String
        /// Each app's client id (an ID token's audience), to the app (U8).
        var audiences: [String: InstallApp]
        /// The app sends the nonce it put into its authentication request; the token must carry the same.
        var requireNonce = true
        var cacheLifetime: TimeInterval = 600
        var minimumRefetchInterval: TimeInterval = 30
    }

    /// The claims the service reads from an ID token.
    struct IDTokenClaims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var email: String?
        var name: String?
        var nonce: String?
        /// The authorized party: with several audiences, the one the token was issued to.
        var azp: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    /// The provider's keys as last fetched, with the algorithm each `kid` must be used with.
    private struct Keys: Sendable {
        let collection: JWTKeyCollection
        let algorithms: [String: String]
    }

    let configuration: Configuration
    private let logger: Logger
    /// The last good key set, kept with no expiry: past `cacheLifetime` it is refetched, but served on while the
    /// provider is unreachable. Its entry's `stored` instant is when it was fetched.
    private let keys = TTLCache<String, Keys>(ttl: nil, capacity: 1)

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Verifies signature, expiry, issuer (exact), audience (one of the apps' clients; with several, `azp` must
    /// name one) and the nonce the app sent (exact). The token header's algorithm must be its key's own. Returns the
    /// claims and the app whose client the token was issued to.
    func verify(_ token: String, nonce: String?) async throws(IDTokenFailure) -> (claims: IDTokenClaims, app: InstallApp) {
        guard let header = ProviderKeySet.header(of: token), let kid = header.kid, let alg = header.alg else { throw .invalidToken }
        var claims: IDTokenClaims
        do {
            claims = try await verified(token, kid: kid, alg: alg, forceRefresh: false)
        } catch .providerUnreachable {
            throw .providerUnreachable
        } catch {
            // Perhaps the provider rotated its keys: refetch once, then decide.
            guard age(of: keys.entry(for: Self.keySet)) >= configuration.minimumRefetchInterval else { throw .invalidToken }
            claims = try await verified(token, kid: kid, alg: alg, forceRefresh: true)
        }
        guard claims.iss.value == configuration.issuer else { throw .wrongIssuer }
        // One audience: it must be an app's client. Several: `azp` names the one it was issued to, which must be ours.
        let client = claims.aud.value.count == 1 ? claims.aud.value.first : claims.azp.flatMap { claims.aud.value.contains($0) ? $0 : nil }
        guard let client, let app = configuration.audiences[client] else { throw .wrongAudience }
        if configuration.requireNonce || nonce != nil {
            guard let nonce, let carried = claims.nonce, carried == nonce else { throw .wrongNonce }
        }
        return (claims, app)
    }

    private func verified(_ token: String, kid: String, alg: String, forceRefresh: Bool) async throws(IDTokenFailure) -> IDTokenClaims {
        let keys = try await currentKeys(forceRefresh: forceRefresh)
        guard let expected = keys.algorithms[kid], expected == alg else { throw .invalidToken }
        do {
            return try await keys.collection.verify(token, as: IDTokenClaims.self)
        } catch {
            throw .invalidToken
        }
    }

    private static let keySet = "jwks"

    /// Seconds since the key set was fetched; never fetched is infinitely old.
    private func age(of entry: TTLCache<String, Keys>.Entry?) -> TimeInterval {
        guard let entry else { return .infinity }
        return (ContinuousClock.now - entry.stored).seconds
    }

    private func currentKeys(forceRefresh: Bool) async throws(IDTokenFailure) -> Keys {
        let last = keys.entry(for: Self.keySet)
        if !forceRefresh, let last, age(of: last) < configuration.cacheLifetime {
            return last.value
        }
        do {
            // AsyncHTTPClient with a deadline, as for every other provider: Foundation's URLSession on Linux can hold a
            // connection to the provider with no request sent and its timeout never firing.
            var request = HTTPClientRequest(url: configuration.jwksURL.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok, let keySet = ProviderKeySet(json: Data(buffer: body)) else {
                throw IDTokenFailure.providerUnreachable
            }
            let collection = JWTKeyCollection()
            try await collection.add(jwksJSON: keySet.normalizedJSON)
            let loaded = Keys(collection: collection, algorithms: keySet.algorithms)
            keys.store(loaded, for: Self.keySet)
            return loaded
        } catch {
            logger.warning("could not fetch the identity provider's JWKS", metadata: ["error": "\(error)"])
            if let last { return last.value }  // keep serving with the last good keys
            throw .providerUnreachable
        }
    }
}

extension OIDCVerifier: IDTokenVerifying {
    func identity(of token: String, nonce: String?) async throws(IDTokenFailure) -> VerifiedIdentity {
        let (claims, app) = try await verify(token, nonce: nonce)
        return VerifiedIdentity(issuer: claims.iss.value, subject: claims.sub.value, expires: claims.exp.value, name: claims.name, app: app)
    }
}
