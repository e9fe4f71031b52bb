import Crypto
import Foundation
import TestSupport

/// What the journeys' fake providers share with the stack they meet (X5). A journey that starts its own stack
/// makes them on the spot: free ports, fresh keys and secrets. Against a running stack (`JOURNEY_STACK_DIR`, set by
/// `scripts/journeys.sh`) they are the ones `scripts/stack.sh` generated when it was started with `STACK_JOURNEYS=1`:
/// the stack was pointed at the fakes' ports before the fakes existed, and holds the other side of every secret.
struct JourneyProviders: Sendable {
    /// The running stack's journey settings (`journeys/settings.env`, with the push key's PEM), or nil.
    let given: [String: String]?
    /// The running stack's state directory, or nil.
    let stackDirectory: URL?

    static let current = JourneyProviders(environment: ProcessInfo.processInfo.environment)

    /// auth trusts every install at once: the journeys' installs rate, add places and apply as partners without waiting
    /// `INSTALL_TRUST_AFTER_HOURS` or attesting (the attestation's own journey is auth's integration tests').
    static let trustingInstalls = ["INSTALL_TRUST_AFTER_HOURS": "0"]

    static let pushTeamId = "TEAM123456"
    static let pushKeyId = "KEY7654321"

    init(environment: [String: String]) {
        guard let directory = environment["JOURNEY_STACK_DIR"] else {
            (given, stackDirectory) = (nil, nil)
            return
        }
        let folder = URL(fileURLWithPath: directory)
        var settings = Self.readEnvironmentFile(folder.appendingPathComponent("journeys/settings.env"))
        if let pem = try? String(contentsOf: folder.appendingPathComponent("journeys/push-key.pem"), encoding: .utf8) {
            settings["PUSH_SIGNING_KEY"] = pem
        }
        (given, stackDirectory) = (settings, folder)
    }

    /// Whether the journeys meet a stack somebody else started.
    var meetsRunningStack: Bool { given != nil }

    /// The port a fake serving `setting`'s URL listens on: any free one for a stack of the journey's own, the one in
    /// the running stack's setting otherwise.
    func port(for setting: String) throws -> Int {
        guard let given else { return 0 }
        guard let text = given[setting], let port = URL(string: text)?.port else {
            throw StackError(description: "the running stack's journey settings name no port in \(setting): \(Self.restartAdvice)")
        }
        return port
    }

    /// A setting of the running stack, or `fresh` for a stack of the journey's own.
    func value(_ setting: String, fresh: @autoclosure () -> String) throws -> String {
        guard let given else { return fresh() }
        guard let value = given[setting] else {
            throw StackError(description: "the running stack's journey settings lack \(setting): \(Self.restartAdvice)")
        }
        return value
    }

    static let freshAdminPassword = "journey-\(uniqueSuffix())-9"

    var adminPassword: String {
        get throws { try value("BOOTSTRAP_ADMIN_PASSWORD", fresh: Self.freshAdminPassword) }
    }

    /// The APNs provider key's PEM, as the stack's `PUSH_SIGNING_KEY` holds it.
    func pushKeyPEM() throws -> String {
        try value("PUSH_SIGNING_KEY", fresh: P256.Signing.PrivateKey().pemRepresentation)
    }

    /// The certificate the fake APNs serves, which the stack trusts through `PUSH_CA_FILE`.
    func pushCertificate() throws -> TestCertificate {
        guard given != nil else { return try TestCertificate() }
        let certificate = URL(fileURLWithPath: try value("PUSH_CA_FILE", fresh: ""))
        let key = certificate.deletingLastPathComponent().appendingPathComponent("apns-key.pem")
        return try TestCertificate(certificateFile: certificate.path, privateKeyFile: key.path)
    }

    /// The identity provider whose JWKS the stack reads through `OIDC_JWKS_URL`.
    func identityProvider() throws -> FakeIdentityProvider {
        guard let stackDirectory else { return FakeIdentityProvider() }
        let key = try String(contentsOf: stackDirectory.appendingPathComponent("journeys/idp-key.pem"), encoding: .utf8)
        return try FakeIdentityProvider(port: try port(for: "OIDC_JWKS_URL"), keyPEM: key)
    }

    /// The mail server the stack delivers to (`SMTP_PORT`).
    func mailSink() throws -> SMTPSink {
        guard let given else { return try SMTPSink() }
        guard let port = given["SMTP_PORT"].flatMap({ Int($0) }) else {
            throw StackError(description: "the running stack's journey settings lack SMTP_PORT: \(Self.restartAdvice)")
        }
        return try SMTPSink(port: port)
    }

    /// The running stack's services (`journeys/services.env`, written by each `scripts/stack.sh start`) and its
    /// telemetry keys by app (`telemetry.env`).
    func runningStack() throws -> RunningStack {
        guard let stackDirectory else { throw StackError(description: "no running stack: JOURNEY_STACK_DIR is not set") }
        let services = Self.readEnvironmentFile(stackDirectory.appendingPathComponent("journeys/services.env"))
        guard !services.isEmpty else {
            throw StackError(description: "the running stack named no services in journeys/services.env: \(Self.restartAdvice)")
        }
        let keys = Self.readEnvironmentFile(stackDirectory.appendingPathComponent("telemetry.env"))["TELEMETRY_APP_KEYS"] ?? ""
        let telemetryKeys = Dictionary(
            keys.split(separator: ";").compactMap { entry -> (String, String)? in
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                return parts.count == 2 ? (parts[0], parts[1]) : nil
            }, uniquingKeysWith: { first, _ in first })
        return try RunningStack(services: services, telemetryKeys: telemetryKeys)
    }

    /// Fails with the setting that differs when the running stack was not started with what a journey needs.
    func check(_ settings: [String: String]) throws {
        guard let given else { return }
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) where given[key] != value {
            throw StackError(
                description: "the running stack has \(key)=\(given[key] ?? "(unset)"), the journey needs \(value): \(Self.restartAdvice)")
        }
    }

    static let restartAdvice = "start the stack with `STACK_JOURNEYS=1 scripts/stack.sh restart` before scripts/journeys.sh"

    /// `KEY=VALUE` lines; blank lines and `#` comments skipped; a missing file is empty.
    static func readEnvironmentFile(_ url: URL) -> [String: String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [:] }
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        return values
    }
}
