import Foundation

/// Google's answer to `decodeIntegrityToken` (`{"tokenPayloadExternal": {...}}`), and the rule an install's token must
/// pass: asked for by the app's package with the install's nonce, recently, by the Play-recognised app on a device that
/// meets device integrity. Fields Google may leave out are optional here; a missing one fails its check.
struct PlayIntegrityVerdict: Decodable, Sendable, Equatable {
    var tokenPayloadExternal: Payload

    struct Payload: Decodable, Sendable, Equatable {
        var requestDetails: RequestDetails?
        var appIntegrity: AppIntegrity?
        var deviceIntegrity: DeviceIntegrity?
    }

    struct RequestDetails: Decodable, Sendable, Equatable {
        var requestPackageName: String?
        /// A classic request's nonce (base64url, as the app passed it).
        var nonce: String?
        /// A standard request's hash (as the app passed it).
        var requestHash: String?
        var timestampMillis: Milliseconds?
    }

    struct AppIntegrity: Decodable, Sendable, Equatable {
        var appRecognitionVerdict: String?
        var packageName: String?
    }

    struct DeviceIntegrity: Decodable, Sendable, Equatable {
        var deviceRecognitionVerdict: [String]?
    }

    /// Google's JSON writes an int64 as a string; a number is read too.
    struct Milliseconds: Decodable, Sendable, Equatable {
        var value: Int64

        init(_ value: Int64) { self.value = value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), let value = Int64(text) {
                self.value = value
            } else {
                value = try container.decode(Int64.self)
            }
        }
    }

    /// When the app asked for the token.
    var askedAt: Date? {
        tokenPayloadExternal.requestDetails?.timestampMillis.map { Date(timeIntervalSince1970: TimeInterval($0.value) / 1_000) }
    }

    /// A clock a little ahead of ours still asks in the past.
    static let clockSkew: TimeInterval = 60

    /// Why this verdict attests no install of `packageName` whose nonce is `nonce`, or nil when it does.
    func refusal(packageName: String, nonce: Data, now: Date, maxAge: TimeInterval) -> AttestationRefusal? {
        let payload = tokenPayloadExternal
        guard payload.requestDetails?.requestPackageName == packageName, payload.appIntegrity?.packageName == packageName else {
            return .wrongPackage
        }
        let asked = [payload.requestDetails?.nonce, payload.requestDetails?.requestHash].compactMap { $0.flatMap(Self.bytes) }
        guard asked.contains(nonce) else { return .wrongNonce }
        guard let askedAt else { return .stale }
        let age = now.timeIntervalSince(askedAt)
        guard age <= maxAge, age >= -Self.clockSkew else { return .stale }
        guard payload.appIntegrity?.appRecognitionVerdict == "PLAY_RECOGNIZED" else { return .appNotRecognized }
        // A device meeting strong integrity meets device integrity too; basic integrity alone (an emulator, an unlocked
        // boot loader) does not.
        let device = Set(payload.deviceIntegrity?.deviceRecognitionVerdict ?? [])
        guard device.contains("MEETS_DEVICE_INTEGRITY") || device.contains("MEETS_STRONG_INTEGRITY") else { return .deviceNotTrusted }
        return nil
    }

    /// Base64url (or base64), with or without padding, as Android's `Base64` writes it.
    static func bytes(_ text: String) -> Data? {
        var base64 = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = base64.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
