import Foundation
import Synchronization

@testable import Auth

/// Recovery mails queued in memory, as `kind:address` (`link:` a reset link with its base, `pin:` a forgot-PIN code).
final class MemoryRecoveryMails: ResetLinkMails, PinCodeMails {
    private let queued = Mutex<[String]>([])

    var mails: [String] { queued.withLock { $0 } }

    func request(for account: Account, email: EmailAddress, linkBase: String) async throws {
        queued.withLock { $0.append("link:\(email.value) \(linkBase)") }
    }

    func start(for account: Account, email: EmailAddress) async throws {
        queued.withLock { $0.append("pin:\(email.value)") }
    }
}
