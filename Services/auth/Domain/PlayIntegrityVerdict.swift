import Foundation

/// Google's answer to `decodeIntegrityToken` (`{"tokenPayloadExternal": {...}}`), and the rule an install's token must
/// pass: asked for by the app's package with the install's nonce, recently, by the Play-recognised app on a device that
/// meets device integrity. Fields Google may leave out are optional here; a missing one fails its check.
package struct PlayIntegrityVerdict: Decodable, Sendable, Equatable {
    package var tokenPayloadExternal: Payload

    package init(tokenPayloadExternal: Payload) {
        self.tokenPayloadExternal = tokenPayloadExternal
    }

    package struct Payload: Decodable, Sendable, Equatable {
        package var requestDetails: RequestDetails?
        package var appIntegrity: AppIntegrity?
        package var deviceIntegrity: DeviceIntegrity?

        package init(requestDetails: RequestDetails? = nil, appIntegrity: AppIntegrity? = nil, deviceIntegrity: DeviceIntegrity? = nil) {
            self.requestDetails = requestDetails
            self.appIntegrity = appIntegrity
            self.deviceIntegrity = deviceIntegrity
        }
    }

    package struct RequestDetails: Decodable, Sendable, Equatable {
        package var requestPackageName: String?
        /// A classic request's nonce (base64url, as the app passed it).
        package var nonce: String?
        /// A standard request's hash (as the app passed it).
        package var requestHash: String?
        package var timestampMillis: Milliseconds?

        package init(requestPackageName: String? = nil, nonce: String? = nil, requestHash: String? = nil, timestampMillis: Milliseconds? = nil) {
            self.requestPackageName = requestPackageName
            self.nonce = nonce
            self.requestHash = requestHash
            self.timestampMillis = timestampMillis
        }
    }

    package struct AppIntegrity: Decodable, Sendable, Equatable {
        package var appRecognitionVerdict: String?
        package var packageName: String?

        package init(appRecognitionVerdict: String? = nil, packageName: String? = nil) {
            self.appRecognitionVerdict = appRecognitionVerdict
            self.packageName = packageName
        }
    }

    package struct DeviceIntegrity: Decodable, Sendable, Equatable {
        package var deviceRecognitionVerdict: [String]?

        package init(deviceRecognitionVerdict: [String]? = nil) {
            self.deviceRecognitionVerdict = deviceRecognitionVerdict
        }
    }

    /// Google's JSON writes an int64 as a string; a number is read too.
    package struct Milliseconds: Decodable, Sendable, Equatable {
        package var value: Int64

        package init(_ value: Int64) { self.value = value }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), let value = Int64(text) {
                self.value = value
            } else {
                value = try container.decode(Int64.self)
            }
        }
    }

    /// When the app asked for the token.
    package var askedAt: Date? {
        tokenPayloadExternal.requestDetails?.timestampMillis.map { Date(timeIntervalSince1970: TimeInterval($0.value) / 1_000) }
    }

    /// A clock a little ahead of ours still asks in the past.
    package static let clockSkew: TimeInterval = 60

    /// Why this verdict attests no install of `packageName` whose nonce is `nonce`, or nil when it does.
    package func refusal(packageName: String, nonce: Data, now: Date, maxAge: TimeInterval) -> AttestationRefusal? {
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
    package static func bytes(_ text: String) -> Data? {
        var base64 = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 = base64.trimmingCharacters(in: CharacterSet(charactersIn: "="))
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
