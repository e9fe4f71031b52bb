import Foundation
import TestSupport

extension SMTPSink {
    /// The `occurrence`-th code after `marker` in the mail delivered so far (1-based), waiting for it to arrive.
    func code(after marker: String, occurrence: Int = 1, within limit: Duration = .seconds(60)) async throws -> String {
        let deadline = ContinuousClock.now + limit
        while true {
            let parts = mailbox.components(separatedBy: marker)
            if parts.count > occurrence { return String(parts[occurrence].prefix(while: \.isNumber)) }
            guard ContinuousClock.now < deadline else { throw JourneyTimeout(limit: limit) }
            try await Task.sleep(for: .milliseconds(200))
        }
    }
}
