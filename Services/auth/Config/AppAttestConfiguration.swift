import Foundation
import PlatformCore
import PlatformEvents
import X509

/// How iOS installs' App Attest attestations are checked (`AppAttestVerifier`), read once at start-up. Nothing is set
/// by default: an iOS install that sends one is then answered 422 `attestation_not_accepted`.
///
/// | variable | default |
/// |---|---|
/// | `APP_ATTEST_APP_IDS` | none: each iOS app's App ID, `weather=TEAMID1234.com.example.weather,places=...,horoscope=...` (the team id, a dot, the bundle id) |
/// | `APP_ATTEST_ENVIRONMENT` | `production`: the attestations accepted, `production` or `development` (an app built for development attests under Apple's development environment) |
/// | `APP_ATTEST_ROOT_CERTIFICATES` | Apple App Attestation Root CA (built in): the PEM certificates an attestation's chain must end in (tests name a root of their own) |
struct AppAttestConfiguration: Sendable {
    /// Which of Apple's App Attest environments an attestation comes from: the authenticator data's aaguid says it.
    enum Environment: String, Sendable {
        case production, development

        var aaguid: [UInt8] {
            switch self {
            case .production: Array("appattest".utf8) + [UInt8](repeating: 0, count: 7)
            case .development: Array("appattestdevelop".utf8)
            }
        }
    }

    var appIds: [InstallApp: String]
    var environment: Environment
    var roots: [Certificate]

    /// nil when `APP_ATTEST_APP_IDS` is not set.
    init?(environment: EnvironmentReader) throws(ConfigError) {
        guard let appIds = try environment.parsed("APP_ATTEST_APP_IDS", expected: "app=TEAMID.bundle.id pairs, comma-separated", Self.appIds)
        else { return nil }
        self.appIds = appIds
        self.environment =
            try environment.parsed("APP_ATTEST_ENVIRONMENT", expected: "production or development", Environment.init(rawValue:))
            ?? .production
        roots =
            try environment.parsed("APP_ATTEST_ROOT_CERTIFICATES", expected: "one or more PEM certificates", Self.certificates)
            ?? Self.certificates(Self.appleRootPEM) ?? []
    }

    /// `weather=TEAMID1234.com.example.weather,...`: known apps; a ten-character team id, a dot, a bundle id.
    static func appIds(_ text: String) -> [InstallApp: String]? {
        var ids: [InstallApp: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let app = InstallApp(rawValue: parts[0]), ids[app] == nil else { return nil }
            let segments = parts[1].split(separator: ".", omittingEmptySubsequences: false)
            guard segments.count >= 3, segments[0].count == 10,
                segments.allSatisfy({ segment in
                    !segment.isEmpty && segment.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }
                })
            else { return nil }
            ids[app] = parts[1]
        }
        return ids.isEmpty ? nil : ids
    }

    /// Every certificate of a PEM text; nil when there is none or one does not parse.
    static func certificates(_ pem: String) -> [Certificate]? {
        let blocks = pem.components(separatedBy: "-----END CERTIFICATE-----").compactMap { block -> String? in
            guard let start = block.range(of: "-----BEGIN CERTIFICATE-----") else { return nil }
            return String(block[start.lowerBound...]) + "-----END CERTIFICATE-----"
        }
        let parsed = blocks.compactMap { try? Certificate(pemEncoded: $0) }
        return parsed.isEmpty || parsed.count != blocks.count ? nil : parsed
    }

    /// Apple App Attestation Root CA (P-384, valid 2020-03-18 to 2045-03-15; SHA-256 of its DER
    /// 1cb9823ba28ba6ad2d33a006941de2ae4f513ef1d4e831b9f7e0fa7b6242c932), as Apple publishes it at
    /// https://www.apple.com/certificateauthority/Apple_App_Attestation_Root_CA.pem.
    static let appleRootPEM = """
        -----BEGIN CERTIFICATE-----
        MIICITCCAaegAwIBAgIQC/O+DvHN0uD7jG5yH2IXmDAKBggqhkjOPQQDAzBSMSYw
        JAYDVQQDDB1BcHBsZSBBcHAgQXR0ZXN0YXRpb24gUm9vdCBDQTETMBEGA1UECgwK
        QXBwbGUgSW5jLjETMBEGA1UECAwKQ2FsaWZvcm5pYTAeFw0yMDAzMTgxODMyNTNa
        Fw00NTAzMTUwMDAwMDBaMFIxJjAkBgNVBAMMHUFwcGxlIEFwcCBBdHRlc3RhdGlv
        biBSb290IENBMRMwEQYDVQQKDApBcHBsZSBJbmMuMRMwEQYDVQQIDApDYWxpZm9y
        bmlhMHYwEAYHKoZIzj0CAQYFK4EEACIDYgAERTHhmLW07ATaFQIEVwTtT4dyctdh
        NbJhFs/Ii2FdCgAHGbpphY3+d8qjuDngIN3WVhQUBHAoMeQ/cLiP1sOUtgjqK9au
        Yen1mMEvRq9Sk3Jm5X8U62H+xTD3FE9TgS41o0IwQDAPBgNVHRMBAf8EBTADAQH/
        MB0GA1UdDgQWBBSskRBTM72+aEH/pwyp5frq5eWKoTAOBgNVHQ8BAf8EBAMCAQYw
        CgYIKoZIzj0EAwMDaAAwZQIwQgFGnByvsiVbpTKwSga0kP0e8EeDS4+sQmTvb7vn
        53O5+FRXgeLhpJ06ysC5PrOyAjEAp5U4xDgEgllF7En3VcE3iexZZtKeYnpqtijV
        oyFraWVIyd/dganmrduC1bmTBGwD
        -----END CERTIFICATE-----
        """
}
