import Crypto
import Foundation
import X509

/// Apple's App Attest as a device and Apple's CA together make it, for tests: a root and an intermediate of the test's
/// own (auth is told to trust `rootPEM` through `APP_ATTEST_ROOT_CERTIFICATES`), a key per attestation, and the
/// attestation object in Apple's exact layout (CBOR `{fmt, attStmt: {x5c, receipt}, authData}`, the nonce in the leaf's
/// extension 1.2.840.113635.100.8.2). `Attestation` lets a test break one thing at a time.
public struct FakeAppAttest: Sendable {
    let rootKey = P256.Signing.PrivateKey()
    let intermediateKey = P256.Signing.PrivateKey()
    let root: Certificate
    let intermediate: Certificate

    /// What one attestation says; each field defaults to the honest value.
    public struct Attestation: Sendable {
        public var appId: String
        public var installId: String
        public var counter: UInt32 = 0
        public var development = false
        /// Sign the leaf with a key no configured root knows.
        public var foreignChain = false
        /// Send another key's id (the leaf's key and the credential id both disagree with it).
        public var wrongKeyId = false
        /// Certify another key than the one whose id is sent and in the credential id.
        public var leafKeyMismatch = false
        /// Put another credential id in the authenticator data than the key's id.
        public var credentialIdMismatch = false

        public init(appId: String, installId: String) {
            self.appId = appId
            self.installId = installId
        }
    }

    public init() throws {
        let now = Date()
        let rootName = try DistinguishedName { CommonName("Test App Attestation Root CA") }
        let intermediateName = try DistinguishedName { CommonName("Test App Attestation CA 1") }
        root = try Self.authority(
            subject: rootName, issuer: rootName, key: Certificate.PublicKey(rootKey.publicKey), signer: Certificate.PrivateKey(rootKey), now: now)
        intermediate = try Self.authority(
            subject: intermediateName, issuer: rootName, key: Certificate.PublicKey(intermediateKey.publicKey),
            signer: Certificate.PrivateKey(rootKey), now: now)
    }

    /// The root auth must trust, as PEM.
    public var rootPEM: String { get throws { try root.serializeAsPEM().pemString } }

    /// The attestation object and the key id, both base64, as the app sends them.
    public func attest(_ attestation: Attestation) throws -> (token: String, keyId: String) {
        let key = P256.Signing.PrivateKey()
        let keyId = Array(SHA256.hash(data: key.publicKey.x963Representation))
        var authData = Array(SHA256.hash(data: Data(attestation.appId.utf8)))
        authData.append(0x40)
        authData += withUnsafeBytes(of: attestation.counter.bigEndian, Array.init)
        authData += attestation.development ? Array("appattestdevelop".utf8) : Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
        let credentialId = attestation.credentialIdMismatch ? Array(SHA256.hash(data: Data("another credential".utf8))) : keyId
        authData += [0x00, 0x20] + credentialId
        // The credential's public key as COSE would follow; the verifier reads the key from the certificate.
        authData += [0xA5, 0x01, 0x02]
        let clientDataHash = Array(SHA256.hash(data: Data(attestation.installId.utf8)))
        let nonce = Array(SHA256.hash(data: authData + clientDataHash))
        let signer = attestation.foreignChain ? P256.Signing.PrivateKey() : intermediateKey
        let leaf = try Certificate(
            version: .v3, serialNumber: .init(),
            publicKey: Certificate.PublicKey(attestation.leafKeyMismatch ? P256.Signing.PrivateKey().publicKey : key.publicKey),
            notValidBefore: Date().addingTimeInterval(-3_600), notValidAfter: Date().addingTimeInterval(86_400),
            issuer: intermediate.subject, subject: try DistinguishedName { CommonName(Data(keyId).base64EncodedString()) },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions([
                Certificate.Extension(
                    oid: [1, 2, 840, 113_635, 100, 8, 2], critical: false, value: ArraySlice([0x30, 0x24, 0xA1, 0x22, 0x04, 0x20] + nonce))
            ]),
            issuerPrivateKey: Certificate.PrivateKey(signer))
        let chain = [try leaf.serializeAsPEM().derBytes, try intermediate.serializeAsPEM().derBytes]
        let object = CBORWriter.map([
            ("fmt", CBORWriter.text("apple-appattest")),
            ("attStmt", CBORWriter.map([("x5c", CBORWriter.array(chain.map(CBORWriter.bytes))), ("receipt", CBORWriter.bytes([1, 2, 3]))])),
            ("authData", CBORWriter.bytes(authData)),
        ])
        let sentKeyId = attestation.wrongKeyId ? Array(SHA256.hash(data: Data("another key".utf8))) : keyId
        return (Data(object).base64EncodedString(), Data(sentKeyId).base64EncodedString())
    }

    private static func authority(
        subject: DistinguishedName, issuer: DistinguishedName, key: Certificate.PublicKey, signer: Certificate.PrivateKey, now: Date
    ) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: .init(), publicKey: key, notValidBefore: now.addingTimeInterval(-86_400),
            notValidAfter: now.addingTimeInterval(365 * 86_400), issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: signer)
    }
}

/// The few CBOR heads an attestation object needs (RFC 8949, definite lengths).
public enum CBORWriter {
    public static func head(_ major: UInt8, _ length: Int) -> [UInt8] {
        switch length {
        case ..<24: [major << 5 | UInt8(length)]
        case ..<256: [major << 5 | 24, UInt8(length)]
        case ..<65_536: [major << 5 | 25, UInt8(length >> 8), UInt8(length & 0xFF)]
        default: [major << 5 | 26] + withUnsafeBytes(of: UInt32(length).bigEndian, Array.init)
        }
    }

    public static func bytes(_ value: [UInt8]) -> [UInt8] { head(2, value.count) + value }
    public static func text(_ value: String) -> [UInt8] { head(3, value.utf8.count) + Array(value.utf8) }
    public static func array(_ items: [[UInt8]]) -> [UInt8] { head(4, items.count) + items.flatMap { $0 } }
    public static func map(_ pairs: [(String, [UInt8])]) -> [UInt8] { head(5, pairs.count) + pairs.flatMap { text($0.0) + $0.1 } }
}
