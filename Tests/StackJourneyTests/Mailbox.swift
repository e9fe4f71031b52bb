import Foundation
import TestSupport

extension SMTPSink {
    /// The code after `marker` in the mail to `recipient`, waiting for the mail to arrive.
    func code(after marker: String, inMailTo recipient: String, within limit: Duration = .seconds(60)) async throws -> String {
        try await poll(within: limit) {
            let code = text(after: marker, inMailTo: recipient)?.prefix(while: \.isNumber)
            return code.flatMap { $0.isEmpty ? nil : String($0) }
        }
    }

    /// The link token after `marker` in the mail to `recipient`, waiting for the mail to arrive.
    func token(after marker: String, inMailTo recipient: String, within limit: Duration = .seconds(60)) async throws -> String {
        try await poll(within: limit) { text(after: marker, inMailTo: recipient).map { String($0.prefix { !$0.isWhitespace }) } }
    }

    /// What follows the first `marker` after `recipient`'s address (which stands in a message's headers before its
    /// body), so mail to others delivered before it (a running stack's, retried from earlier runs) is passed over.
    private func text(after marker: String, inMailTo recipient: String) -> Substring? {
        let box = mailbox
        guard let addressed = box.range(of: recipient), let found = box.range(of: marker, range: addressed.upperBound..<box.endIndex)
        else { return nil }
        return box[found.upperBound...]
    }
}
