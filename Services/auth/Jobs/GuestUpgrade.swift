import Foundation
import Logging

/// Horoscope guests from before install accounts (U8), accounts of role `guest`, become what a guest is now: install accounts of
/// the horoscope app with the role `user`, each with `user.role-changed` published so the other services stop
/// refusing them. Runs at start, in batches; nothing is left to do once no guest is left.
struct GuestUpgrade: Sendable {
    let admin: AdminStore

    func run(logger: Logger) async throws {
        var upgraded = 0
        while true {
            let guests = try await admin.oldGuests(limit: 500)
            guard !guests.isEmpty else { break }
            for id in guests {
                try await admin.makeHoroscopeInstall(id)
                upgraded += 1
            }
        }
        if upgraded > 0 { logger.notice("horoscope guests made install accounts", metadata: ["accounts": "\(upgraded)"]) }
    }
}
