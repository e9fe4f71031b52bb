import Foundation
import PlatformCore
import PlatformEvents

/// What a verified ID token says: who, by which issuer, until when, and the app whose client it was issued to.
package struct VerifiedIdentity: Sendable, Equatable {
    package let issuer: String
    package let subject: String
    package let expires: Date
    package let name: String?
    package let app: InstallApp

    package init(issuer: String, subject: String, expires: Date, name: String?, app: InstallApp) {
        self.issuer = issuer
        self.subject = subject
        self.expires = expires
        self.name = name
        self.app = app
    }
}

/// Checks an ID token against the identity provider's keys, issuer, audiences and nonce.
package protocol IDTokenVerifying: Sendable {
    func identity(of token: String, nonce: String?) async throws(IDTokenFailure) -> VerifiedIdentity
}

/// Login with an OpenID Connect ID token (U5): a try against the client address is taken before the token is
/// checked and given back when it passes (or the provider could not be asked); a nonce logs in once; the account
/// is the identity's own, made on its first login.
package struct ExternalLogin: Sendable {
    package let verifier: any IDTokenVerifying
    package let identities: any ExternalIdentities
    package let tries: TryLedger
    /// Failed logins per client address.
    package let addressLimit: AttemptLimit

    package init(verifier: any IDTokenVerifying, identities: any ExternalIdentities, tries: TryLedger, addressLimit: AttemptLimit) {
        self.verifier = verifier
        self.identities = identities
        self.tries = tries
        self.addressLimit = addressLimit
    }

    package enum Refusal: Error, Equatable {
        case invalidToken
        case providerUnreachable
        case banned
    }

    package func run(idToken: String, nonce: String?, clientKey: String) async throws -> Account {
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
