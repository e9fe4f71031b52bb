import Foundation
import TestSupport

extension SMTPSink {
    /// The `occurrence`-th code after `marker` in the mail delivered so far (1-based), waiting for it to arrive.
    func code(after marker: String, occurrence: Int = 1, within limit: Duration = .seconds(60)) async throws -> String {
        try await poll(within: limit) {
            let parts = mailbox.components(separatedBy: marker)
            return parts.count > occurrence ? String(parts[occurrence].prefix(while: \.isNumber)) : nil
        }
    }

    /// The link token after `marker` in the mail to `recipient` (the first marker after its address, which stands
    /// in the message's headers before its body), waiting for the mail to arrive.
    func token(after marker: String, inMailTo recipient: String, within limit: Duration = .seconds(60)) async throws -> String {
        try await poll(within: limit) {
            let box = mailbox
            guard let addressed = box.range(of: recipient), let link = box.range(of: marker, range: addressed.upperBound..<box.endIndex)
            else { return nil }
            return String(box[link.upperBound...].prefix { !$0.isWhitespace })
        }
    }
}
