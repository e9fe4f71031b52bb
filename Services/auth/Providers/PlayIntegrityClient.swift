import Foundation
import Logging
import NIOCore
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Google Play Integrity's server API: `POST {base}/v1/{packageName}:decodeIntegrityToken` with
/// `{"integrity_token": "..."}` and the configured bearer token decodes an app's token into its verdict
/// (`PlayIntegrityVerdict`), which must attest the install. Google answers 400 for a token it cannot decode; anything
/// else that is not a verdict means the provider is unavailable, never that the install is attested.
struct PlayIntegrityClient: InstallAttesting {
    let http: ProviderHTTPClient
    let configuration: PlayIntegrityConfiguration
    let logger: Logger

    func verify(
        _ attestation: InstallAttestation, app: InstallApp, installId: String, now: Date
    ) async throws(AttestationRefusal) -> AttestedInstall {
        guard attestation.provider == .playIntegrity, let package = configuration.packages[app] else { throw .notConfigured }
        let verdict = try await decode(attestation.token, package: package)
        if let refusal = verdict.refusal(
            packageName: package, nonce: InstallAttestation.nonce(for: installId), now: now, maxAge: configuration.maxAge)
        {
            logger.notice("install attestation refused", metadata: ["app": "\(app.rawValue)", "refusal": "\(refusal)"])
            throw refusal
        }
        // Remembered as used for as long as it could attest again.
        let usableUntil = (verdict.askedAt ?? now).addingTimeInterval(configuration.maxAge)
        return AttestedInstall(fingerprint: attestation.fingerprint, usableUntil: max(usableUntil, now))
    }

    func url(package: String) -> String {
        (configuration.baseURL.hasSuffix("/") ? String(configuration.baseURL.dropLast()) : configuration.baseURL)
            + "/v1/\(package):decodeIntegrityToken"
    }

    private struct DecodeRequest: Encodable {
        var integrityToken: String

        enum CodingKeys: String, CodingKey {
            case integrityToken = "integrity_token"
        }
    }

    private func decode(_ token: String, package: String) async throws(AttestationRefusal) -> PlayIntegrityVerdict {
        let answer: ByteBuffer
        do {
            let body = String(decoding: try JSONEncoder().encode(DecodeRequest(integrityToken: token)), as: UTF8.self)
            answer = try await http.send(
                .POST, url(package: package),
                headers: [("Authorization", "Bearer \(configuration.accessToken.value)"), ("Content-Type", "application/json")], body: body)
        } catch ProviderError.status(400, _) {
            throw .invalidToken
        } catch {
            logger.warning("Play Integrity did not decode a token", metadata: ["error": "\(error)"])
            throw .providerUnavailable
        }
        do {
            return try JSONDecoder().decode(PlayIntegrityVerdict.self, from: Data(buffer: answer))
        } catch {
            logger.warning("Play Integrity answered no verdict", metadata: ["error": "\(error)"])
            throw .providerUnavailable
        }
    }
}
