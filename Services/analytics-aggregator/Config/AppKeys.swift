import Crypto
import Foundation
import PlatformEvents

/// The apps allowed to send telemetry, each with its keys (N1). Several keys per app let an operator rotate:
/// add the new key, move the apps over, then drop the old one, without a moment when neither works.
struct AppKeys: Sendable {
    /// SHA-256 of each key → its app: the lookup compares digests, so no key is compared byte by byte.
    private let appByDigest: [Data: TelemetryApp]

    init(keysByApp: [TelemetryApp: [String]]) {
        var table: [Data: TelemetryApp] = [:]
        for (app, keys) in keysByApp {
            for key in keys { table[Self.digest(key)] = app }
        }
        appByDigest = table
    }

    /// `weather=KEY1,KEY2;places=KEY3`; nil when an app is unknown, a key is empty, or a key serves two apps.
    init?(parsing text: String) {
        var keysByApp: [TelemetryApp: [String]] = [:]
        var seen: Set<String> = []
        for entry in text.split(separator: ";") where !entry.trimmingCharacters(in: .whitespaces).isEmpty {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            guard let app = TelemetryApp(rawValue: parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            for key in parts[1].split(separator: ",") {
                let key = key.trimmingCharacters(in: .whitespaces)
                guard key.count >= 16, seen.insert(key).inserted else { return nil }
                keysByApp[app, default: []].append(key)
            }
        }
        self.init(keysByApp: keysByApp)
    }

    /// The app a key belongs to, nil for an unknown key.
    func app(for key: String) -> TelemetryApp? {
        appByDigest[Self.digest(key)]
    }

    var isEmpty: Bool { appByDigest.isEmpty }

    private static func digest(_ key: String) -> Data { Data(SHA256.hash(data: Data(key.utf8))) }
}
