import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Where Android installs' Play Integrity tokens are decoded (`PlayIntegrityClient`), read once at start-up. Nothing
/// is set by default: an install that sends a token then gets 503 `attestation_unavailable`.
///
/// | variable | default |
/// |---|---|
/// | `PLAY_INTEGRITY_PACKAGES` | none: each Android app's package name, `weather=com.example.weather,places=...,horoscope=...`; set together with `PLAY_INTEGRITY_ACCESS_TOKEN`. An app without one is answered 503 `attestation_unavailable` |
/// | `PLAY_INTEGRITY_ACCESS_TOKEN` | none: the bearer token of the `decodeIntegrityToken` calls (in production an OAuth access token of a service account of the apps' Google Cloud project, scope `https://www.googleapis.com/auth/playintegrity`) |
/// | `PLAY_INTEGRITY_BASE_URL` | `https://playintegrity.googleapis.com` (https; plain http only on a loopback address with `PLAY_INTEGRITY_ALLOW_HTTP_LOOPBACK`) |
/// | `PLAY_INTEGRITY_ALLOW_HTTP_LOOPBACK` | `false`: a base URL on http://127.0.0.1 is accepted only with this (tests) |
/// | `PLAY_INTEGRITY_MAX_AGE_SECONDS` | `300` (10-3600): how long after the app asked for it a token still attests an install |
struct PlayIntegrityConfiguration: Sendable {
    var baseURL: String
    /// Each app's Android package.
    var packages: [InstallApp: String]
    var accessToken: Secret
    var maxAge: TimeInterval
    /// A person waits for the answer: one quick retry, no long backoff. Google's 400 for a token it cannot decode is
    /// about the token: made-up tokens do not open the circuit for every real install.
    var http = ProviderHTTPPolicy(
        timeout: .seconds(10), maxAttempts: 2, baseBackoff: .milliseconds(200), maxBackoff: .seconds(1), requestsPerSecond: 100,
        circuitFailureThreshold: 5, circuitCoolDown: .seconds(30), clientErrorsAreAnswers: true)

    /// nil when `PLAY_INTEGRITY_PACKAGES` is not set; the access token is then required.
    init?(environment: EnvironmentReader) throws(ConfigError) {
        guard let packages = try environment.parsed("PLAY_INTEGRITY_PACKAGES", expected: "app=package pairs, comma-separated", Self.packages)
        else { return nil }
        self.packages = packages
        accessToken = Secret(try environment.requiredString("PLAY_INTEGRITY_ACCESS_TOKEN"))
        // The access token crosses the network: in the clear only to this machine (tests).
        let httpLoopback = try environment.bool("PLAY_INTEGRITY_ALLOW_HTTP_LOOPBACK", default: false)
        baseURL =
            try environment.parsed(
                "PLAY_INTEGRITY_BASE_URL", expected: "an https URL (http only for loopback with PLAY_INTEGRITY_ALLOW_HTTP_LOOPBACK)",
                { text in
                    URL(string: text).flatMap { url in
                        url.scheme == "https"
                            || (httpLoopback && url.scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host ?? ""))
                            ? text : nil
                    }
                }) ?? "https://playintegrity.googleapis.com"
        maxAge = TimeInterval(try environment.int("PLAY_INTEGRITY_MAX_AGE_SECONDS", default: 300, range: 10...3_600))
    }

    /// `weather=com.example.weather,...`: known apps, Android package names (letters, digits, `_`, dots between).
    static func packages(_ text: String) -> [InstallApp: String]? {
        var packages: [InstallApp: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let app = InstallApp(rawValue: parts[0]), packages[app] == nil,
                parts[1].split(separator: ".", omittingEmptySubsequences: false).count >= 2,
                parts[1].split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ segment in
                    !segment.isEmpty && segment.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_") }
                })
            else { return nil }
            packages[app] = parts[1]
        }
        return packages.isEmpty ? nil : packages
    }
}
