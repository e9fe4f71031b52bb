import Crypto
import Foundation
import Logging
import PlatformEvents
import X509

/// Apple App Attest (iOS): the app makes a key in the Secure Enclave and has Apple attest it
/// (`DCAppAttestService.attestKey`) with the client data hash `InstallAttestation.nonce(for:)` of its install id. The
/// attestation object is checked here, as Apple documents ("Validating apps that connect to your server"): no call to
/// Apple is needed. The certificate chain must end in the configured root (Apple's App Attestation root CA), the leaf's
/// nonce extension must be SHA-256(authData ‖ clientDataHash), the key's SHA-256 must be the key id the app sent, the
/// relying party must be the app's `TEAMID.bundle.id`, the counter 0 and the environment the configured one.
struct AppAttestVerifier: InstallAttesting {
    let configuration: AppAttestConfiguration
    let logger: Logger

    /// The leaf certificate's extension holding the nonce (an OID, dotted).
    static let nonceExtension = "1.2.840.113635.100.8.2"

    func verify(
        _ attestation: InstallAttestation, app: InstallApp, installId: String, now: Date
    ) async throws(AttestationRefusal) -> AttestedInstall {
        guard attestation.provider == .appAttest, let appId = configuration.appIds[app] else { throw .notConfigured }
        guard let keyIdText = attestation.keyId, let keyId = Data(base64Encoded: keyIdText), keyId.count == 32,
            let raw = Data(base64Encoded: attestation.token), let object = AppAttestObject(Array(raw))
        else { throw .invalidToken }
        let leaf = try await validatedLeaf(object)
        let clientDataHash = Array(InstallAttestation.nonce(for: installId))
        guard Self.nonce(in: leaf) == Array(SHA256.hash(data: object.authData + clientDataHash)) else { throw .wrongNonce }
        guard let key = P256.Signing.PublicKey(leaf.publicKey), Array(SHA256.hash(data: key.x963Representation)) == Array(keyId) else {
            throw .invalidToken
        }
        guard let data = AuthenticatorData(object.authData) else { throw .invalidToken }
        guard data.relyingPartyHash == Array(SHA256.hash(data: Data(appId.utf8))) else { throw .wrongPackage }
        guard data.counter == 0, data.credentialId == Array(keyId) else { throw .invalidToken }
        guard data.aaguid == configuration.environment.aaguid else {
            logger.notice("install attestation from another App Attest environment", metadata: ["app": "\(app.rawValue)"])
            throw .appNotRecognized
        }
        // A key attests once; its fingerprint is remembered for good.
        return AttestedInstall(fingerprint: attestation.fingerprint, usableUntil: now.addingTimeInterval(100 * 365 * 86_400))
    }

    /// The leaf, once its chain (`x5c`: leaf, then intermediates) ends in a configured root and is valid at this moment.
    private func validatedLeaf(_ object: AppAttestObject) async throws(AttestationRefusal) -> Certificate {
        let chain: [Certificate]
        do {
            chain = try object.certificates.map { try Certificate(derEncoded: $0) }
        } catch {
            throw .invalidToken
        }
        guard let leaf = chain.first else { throw .invalidToken }
        var verifier = Verifier(rootCertificates: CertificateStore(configuration.roots)) { RFC5280Policy() }
        switch await verifier.validate(leaf: leaf, intermediates: CertificateStore(Array(chain.dropFirst()))) {
        case .validCertificate: return leaf
        case .couldNotValidate:
            logger.notice("install attestation's certificate chain refused")
            throw .invalidToken
        }
    }

    /// The nonce in the leaf: `SEQUENCE { [1] EXPLICIT OCTET STRING (32 bytes) }`, the only form Apple writes.
    static func nonce(in leaf: Certificate) -> [UInt8]? {
        guard let value = leaf.extensions.first(where: { "\($0.oid)" == nonceExtension })?.value else { return nil }
        let bytes = Array(value)
        let head: [UInt8] = [0x30, 0x24, 0xA1, 0x22, 0x04, 0x20]
        guard bytes.count == head.count + 32, Array(bytes.prefix(head.count)) == head else { return nil }
        return Array(bytes.dropFirst(head.count))
    }
}

/// The attestation object's parts: `{fmt: "apple-appattest", attStmt: {x5c: [der...], receipt}, authData}`.
struct AppAttestObject: Sendable {
    var certificates: [[UInt8]]
    var authData: [UInt8]

    init?(_ bytes: [UInt8]) {
        guard let object = CBORValue(decoding: bytes), object["fmt"]?.textString == "apple-appattest",
            let items = object["attStmt"]?["x5c"]?.arrayItems, !items.isEmpty, items.count <= 4,
            let authData = object["authData"]?.byteString
        else { return nil }
        let certificates = items.compactMap(\.byteString)
        guard certificates.count == items.count else { return nil }
        self.certificates = certificates
        self.authData = authData
    }
}

/// WebAuthn's authenticator data as App Attest fills it: rpIdHash (32) ‖ flags (1) ‖ counter (4, big-endian) ‖
/// aaguid (16) ‖ credential id length (2) ‖ credential id ‖ the credential's public key.
struct AuthenticatorData: Sendable, Equatable {
    var relyingPartyHash: [UInt8]
    var counter: UInt32
    var aaguid: [UInt8]
    var credentialId: [UInt8]

    init?(_ bytes: [UInt8]) {
        let fixed = 32 + 1 + 4 + 16 + 2
        guard bytes.count >= fixed else { return nil }
        relyingPartyHash = Array(bytes[0..<32])
        counter = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard length <= bytes.count - fixed else { return nil }
        credentialId = Array(bytes[fixed..<(fixed + length)])
    }
}
