import Foundation
import PlatformCore
import PlatformHTTP

/// What a verified ID token says: who, by which issuer, until when, and the app whose client it was issued to.
struct VerifiedIdentity: Sendable, Equatable {
    let issuer: String
    let subject: String
    let expires: Date
    let name: String?
    let app: InstallApp
}

/// Checks an ID token against the identity provider's keys, issuer, audiences and nonce.
protocol IDTokenVerifying: Sendable {
    func identity(of token: String, nonce: String?) async throws(OIDCVerifier.Failure) -> VerifiedIdentity
}

/// Login with an OpenID Connect ID token (U5): a try against the client address is taken before the token is
/// checked and given back when it passes (or the provider could not be asked); a nonce logs in once; the account
/// is the identity's own, made on its first login.
struct ExternalLogin: Sendable {
    let verifier: any IDTokenVerifying
    let identities: any ExternalIdentities
    let tries: TryLedger
    /// Failed logins per client address.
    let addressLimit: AttemptLimit

    enum Refusal: Error, Equatable {
        case invalidToken
        case providerUnreachable
        case banned
    }

    func run(idToken: String, nonce: String?, clientKey: String) async throws -> Account {
        let addressTry = try await tries.take(.address, subject: clientKey, limit: addressLimit)
        let identity: VerifiedIdentity
        do {
            identity = try await verifier.identity(of: idToken, nonce: nonce)
        } catch .providerUnreachable {
            try await tries.release(addressTry)
            throw Refusal.providerUnreachable
        } catch {
            throw Refusal.invalidToken
        }
        // The same token (or another with its nonce) replayed later is refused.
        if let nonce, try await !identities.useNonce(nonce, issuer: identity.issuer, until: identity.expires) { throw Refusal.invalidToken }
        try await tries.release(addressTry)
        // Claims are the provider's text: Postgres cannot store NUL, so it is dropped rather than failing the login.
        let subject = RequestText.withoutNUL("\(identity.issuer)|\(identity.subject)")
        let account = try await identities.findOrCreateExternal(
            subject: subject, displayName: identity.name.map(RequestText.withoutNUL), app: identity.app)
        guard !account.banned else { throw Refusal.banned }
        return account
    }
}
