import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Accounts for app installs (U8): the weather and places apps have no sign-in in their seeds, yet their
/// personal routes need a member; each install gets a real account of its own, limited per client address and
/// network, and attested when the app sends its platform's proof (`InstallAttestation`).
extension AuthAPI {
    func createInstallAccount(_ input: Operations.CreateInstallAccount.Input) async throws -> Operations.CreateInstallAccount.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let installId = body.installId
        guard (1...128).contains(RequestText.length(installId)),
            installId.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._:-".unicodeScalars.contains($0)) })
        else { throw JSONBody.schemaViolation(["installId": "1 to 128 letters, digits or . _ : -"]) }
        guard let app = InstallApp(rawValue: body.app.rawValue) else { throw JSONBody.schemaViolation(["app": "weather, places or horoscope"]) }
        let attestation = try body.attestation.map { attestation in
            guard let provider = InstallAttestation.Provider(rawValue: attestation.provider.rawValue) else {
                throw JSONBody.schemaViolation(["attestation.provider": "play-integrity or app-attest"])
            }
            guard (1...16_384).contains(RequestText.length(attestation.token)) else {
                throw JSONBody.schemaViolation(["attestation.token": "1 to 16384 characters"])
            }
            if let keyId = attestation.keyId, !(1...64).contains(RequestText.length(keyId)) {
                throw JSONBody.schemaViolation(["attestation.keyId": "1 to 64 characters"])
            }
            return InstallAttestation(provider: provider, token: attestation.token, keyId: attestation.keyId)
        }
        let account = try await auth.installAccounts.install(
            app: app, installId: installId, attestation: attestation, clientKey: RequestScope.clientKey,
            networks: RequestScope.clientNetworks)
        return .created(.session(try await auth.startSession(for: account)))
    }
}
