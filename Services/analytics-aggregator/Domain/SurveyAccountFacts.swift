import Foundation
import PlatformEvents

/// What a batch of auth's `auth.users` events says that analytics keeps (N4, U9): the survey accounts
/// registered, the survey accounts whose address was verified (each may earn a coupon), and the accounts deleted
/// or merged. Decoded once, before anything is written; auth's other account events say nothing analytics keeps.
package struct SurveyAccountFacts {
    package struct Registered: Equatable {
        package var user: String
        package var at: Date

        package init(user: String, at: Date) {
            self.user = user
            self.at = at
        }
    }

    package struct Verified: Equatable {
        package var user: String
        package var mailboxKey: String
        package var at: Date

        package init(user: String, mailboxKey: String, at: Date) {
            self.user = user
            self.mailboxKey = mailboxKey
            self.at = at
        }
    }

    package var registered: [Registered] = []
    /// In one order (by mailbox, then user) whatever the batch, so two partitions' batches take the locks alike.
    package var verified: [Verified] = []
    /// Deletions and merges, in the batch's order, for `AccountLifecycleEvents`.
    package var ended: [ReceivedEvent] = []

    package var isEmpty: Bool { registered.isEmpty && verified.isEmpty && ended.isEmpty }

    /// Throws when a payload analytics reads does not decode (the consumer then dead-letters that event).
    package init(decoding events: [ReceivedEvent]) throws {
        for event in events {
            switch event.header.type {
            case EventTypes.userRegistered:
                let registered = try event.payload(as: UserRegistered.self)
                guard registered.kind == .survey else { continue }
                self.registered.append(Registered(user: registered.userId.uuidString.lowercased(), at: event.header.occurredAt))
            case EventTypes.userEmailVerified:
                let confirmed = try event.payload(as: UserEmailVerified.self)
                guard confirmed.kind == .survey, !confirmed.mailboxKey.isEmpty, confirmed.mailboxKey.count <= 128 else { continue }
                verified.append(
                    Verified(user: confirmed.userId.uuidString.lowercased(), mailboxKey: confirmed.mailboxKey, at: event.header.occurredAt))
            case EventTypes.userDeleted, EventTypes.userMerged:
                ended.append(event)
            default:
                continue
            }
        }
        verified.sort { ($0.mailboxKey, $0.user) < ($1.mailboxKey, $1.user) }
    }
}
