import Crypto
import Foundation
import PlatformEvents

/// What an app sends with `POST /v1/installs` to prove it is the real app on a real device: a Play Integrity token
/// (Android) or an App Attest attestation object with its key id (iOS). Either is bound to the install: the app asks
/// for it with the nonce `nonce(for:)` of its install id (App Attest: as the client data hash), so one asked for one
/// install attests no other.
package struct InstallAttestation: Sendable, Equatable {
    package enum Provider: String, Sendable, CaseIterable {
        case playIntegrity = "play-integrity"
        case appAttest = "app-attest"
    }

    package var provider: Provider
    package var token: String
    /// App Attest's key id (base64): the key attests once, whatever attestation object carries it.
    package var keyId: String? = nil

    package init(provider: Provider, token: String, keyId: String? = nil) {
        self.provider = provider
        self.token = token
        self.keyId = keyId
    }

    /// The SHA-256 of the install id: the nonce (Play Integrity's classic request, base64url) or request hash (its
    /// standard request) the app asks for its token with.
    package static func nonce(for installId: String) -> Data { Data(SHA256.hash(data: Data(installId.utf8))) }

    /// The token (App Attest: the key) as recorded once used (`InstallAccounts.createInstall`): one attests one account.
    /// A key id is taken by its bytes, written again: base64 has several spellings of one key.
    package var fingerprint: String {
        guard provider == .appAttest else { return SecretDigest.sha256Hex("\(provider.rawValue)|\(token)") }
        let key = keyId.flatMap { Data(base64Encoded: $0) }.map { $0.base64EncodedString() } ?? keyId ?? token
        return SecretDigest.sha256Hex("\(provider.rawValue)|\(key)")
    }
}

/// An attestation its provider vouched for: the token's fingerprint, remembered until it could no longer attest.
package struct AttestedInstall: Sendable, Equatable {
    package var fingerprint: String
    package var usableUntil: Date

    package init(fingerprint: String, usableUntil: Date) {
        self.fingerprint = fingerprint
        self.usableUntil = usableUntil
    }
}

/// Why an attestation attests nothing. The request then makes no account: the app may try again without one.
package enum AttestationRefusal: Error, Equatable {
    /// The provider could not decode the token (made up, truncated, for another project).
    case invalidToken
    /// The token was asked for by another app's package.
    case wrongPackage
    /// The token was asked for with another nonce: for another install.
    case wrongNonce
    /// The token was asked for too long ago (or in the future).
    case stale
    /// The provider does not recognise the app binary (not installed from Play, modified).
    case appNotRecognized
    /// The device does not meet the provider's device integrity (an emulator, a rooted device).
    case deviceNotTrusted
    /// The token attested another account already.
    case reused
    /// No verifier is configured for this provider or app.
    case notConfigured
    /// The provider did not answer in time, or answered with an error of its own.
    case providerUnavailable
}

/// Checks an attestation with its provider (`PlayIntegrityClient`, `AppAttestVerifier`, `InstallAttesters` for both).
package protocol InstallAttesting: Sendable {
    /// The token's fingerprint when its provider vouches for `installId` of `app` now; otherwise the refusal.
    func verify(
        _ attestation: InstallAttestation, app: InstallApp, installId: String, now: Date
    ) async throws(AttestationRefusal) -> AttestedInstall
}

/// The attesters configured, each for its own provider; an attestation for one that is not configured is refused as
/// `notConfigured`.
package struct InstallAttesters: InstallAttesting {
    package var playIntegrity: (any InstallAttesting)?
    package var appAttest: (any InstallAttesting)?

    package init(playIntegrity: (any InstallAttesting)? = nil, appAttest: (any InstallAttesting)? = nil) {
        self.playIntegrity = playIntegrity
        self.appAttest = appAttest
    }

    package func verify(
        _ attestation: InstallAttestation, app: InstallApp, installId: String, now: Date
    ) async throws(AttestationRefusal) -> AttestedInstall {
        let attester =
            switch attestation.provider {
            case .playIntegrity: playIntegrity
            case .appAttest: appAttest
            }
        guard let attester else { throw .notConfigured }
        return try await attester.verify(attestation, app: app, installId: installId, now: now)
    }
}
