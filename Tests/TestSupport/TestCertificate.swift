import Crypto
import Foundation
import NIOSSL
import X509

/// A self-signed certificate for `localhost`, made fresh per test run, so fakes of TLS-only providers (APNs)
/// can serve HTTPS on loopback. The service under test trusts it through its CA-file setting.
public struct TestCertificate: Sendable {
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// The certificate written to a temporary file, for `PUSH_CA_FILE`-style settings.
    public let certificateFile: String

    public init() throws {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(86_400), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames([.dnsName("localhost")])
            },
            issuerPrivateKey: Certificate.PrivateKey(key))
        certificatePEM = try certificate.serializeAsPEM().pemString
        privateKeyPEM = key.pemRepresentation
        certificateFile = FileManager.default.temporaryDirectory.appendingPathComponent("test-ca-\(UUID().uuidString).pem").path
        try certificatePEM.write(toFile: certificateFile, atomically: true, encoding: .utf8)
    }

    func serverConfiguration() throws -> TLSConfiguration {
        TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try NIOSSLCertificate(bytes: Array(certificatePEM.utf8), format: .pem))],
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)))
    }
}
