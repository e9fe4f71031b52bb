import Foundation
import PlatformCore
import PlatformHTTP

/// URL fields that the apps open or load (a partner's photo, a prayer's media): `https` with a host only, so a
/// stored `javascript:`, `data:` or plain `http:` link cannot reach a user's device.
enum HTTPSURLField {
    /// The problem to report for `value`, or nil when it is an https URL with a host of at most `limit` characters.
    static func problem(_ value: String, limit: Int = 500) -> String? {
        let message = "must be an https URL (with a host) of at most \(limit) characters"
        guard RequestText.length(value) <= limit, let url = URL(string: value),
            url.scheme?.lowercased() == "https", let host = url.host, !host.isEmpty
        else { return message }
        return nil
    }
}
