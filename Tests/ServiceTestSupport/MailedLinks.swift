import Foundation
import TestSupport

// What auth's mail sender delivered to the SMTP sink, read the way a user reads the mail.

/// The n-th reset link in the mailbox, waiting for the mail sender to deliver it. `base`: the harness's
/// `AUTH_RESET_URL`.
package func waitForResetLink(in smtp: SMTPSink, occurrence: Int = 1, base: String = "https://dashboard.test/reset") async throws -> String? {
    let marker = base + "?token="
    _ = try await eventually { smtp.mailbox.components(separatedBy: marker).count > occurrence }
    let parts = smtp.mailbox.components(separatedBy: marker)
    guard parts.count > occurrence else { return nil }
    let token = parts[occurrence].prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    return marker + token
}

/// The last PIN reset code in the mailbox, waiting for the mail sender to deliver it.
package func waitForPinCode(in smtp: SMTPSink) async throws -> String? {
    let marker = "Your PIN reset code is "
    _ = try await eventually { smtp.mailbox.contains(marker) }
    guard let range = smtp.mailbox.range(of: marker, options: .backwards) else { return nil }
    return String(smtp.mailbox[range.upperBound...].prefix(6))
}
