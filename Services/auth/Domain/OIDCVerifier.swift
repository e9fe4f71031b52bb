import Foundation
import JWTKit
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Verifies OpenID Connect ID tokens (U5: "login through an external identity provider") against the provider's
/// JWKS fetched from a configured URL. Keys are cached for `cacheLifetime`; a token signed with a key the cache
/// does not know triggers one refetch (key rotation), at most every `minimumRefetchInterval`.
actor OIDCVerifier {
    struct Configuration: Sendable {
        var jwksURL: URL
        var issuer: String
        var audience: String
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

        func verify(using algorithm: some JWTAlgorithm) async throws {
            try exp.verifyNotExpired()
        }
    }

    enum Failure: Error, Equatable {
        case invalidToken
        case wrongIssuer
        case wrongAudience
        case providerUnreachable
    }

    let configuration: Configuration
    private let logger: Logger
    private var keys: JWTKeyCollection?
    private var fetchedAt: Date = .distantPast

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    func verify(_ token: String) async throws(Failure) -> IDTokenClaims {
        var claims: IDTokenClaims
        do {
            claims = try await currentKeys(forceRefresh: false).verify(token, as: IDTokenClaims.self)
        } catch let failure as Failure {
            throw failure
        } catch {
            // Perhaps the provider rotated its keys: refetch once, then decide.
            guard Date().timeIntervalSince(fetchedAt) >= configuration.minimumRefetchInterval else { throw .invalidToken }
            do {
                claims = try await currentKeys(forceRefresh: true).verify(token, as: IDTokenClaims.self)
            } catch let failure as Failure {
                throw failure
            } catch {
                throw .invalidToken
            }
        }
        guard claims.iss.value == configuration.issuer else { throw .wrongIssuer }
        guard claims.aud.value.contains(configuration.audience) else { throw .wrongAudience }
        return claims
    }

    private func currentKeys(forceRefresh: Bool) async throws(Failure) -> JWTKeyCollection {
        if !forceRefresh, let keys, Date().timeIntervalSince(fetchedAt) < configuration.cacheLifetime {
            return keys
        }
        do {
            var request = URLRequest(url: configuration.jwksURL, timeoutInterval: 10)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (data, response) = try await URLSession.shared.data(for: request)
            guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw Failure.providerUnreachable }
            let collection = JWTKeyCollection()
            try await collection.add(jwksJSON: String(decoding: data, as: UTF8.self))
            keys = collection
            fetchedAt = Date()
            return collection
        } catch {
            logger.warning("could not fetch the identity provider's JWKS", metadata: ["error": "\(error)"])
            if let keys { return keys }  // keep serving with the last good keys
            throw .providerUnreachable
        }
    }
}
