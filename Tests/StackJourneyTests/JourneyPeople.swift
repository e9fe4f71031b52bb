import AppointmentsContract
import AuthContract
import Foundation
import PlatformClient
import TestSupport

/// The dashboard's people as the journeys meet them: signed in with a password, or invited by an admin and
/// activated through the mailed link.
enum JourneyPeople {
    static let adminEmail = "admin@journey.test"
    static let linkMarker = "/dashboard/reset-password?token="

    /// The first admin's password: the stack's `BOOTSTRAP_ADMIN_PASSWORD`.
    static var adminPassword: String {
        get throws { try JourneyProviders.current.adminPassword }
    }

    /// The stack's settings for its first admin and for mail to `smtp`.
    static func settings(smtp: SMTPSink) throws -> [String: String] {
        [
            "SMTP_HOST": "127.0.0.1", "SMTP_PORT": "\(smtp.port)", "SMTP_TLS": "none",
            "BOOTSTRAP_ADMIN_EMAIL": adminEmail, "BOOTSTRAP_ADMIN_PASSWORD": try adminPassword,
        ]
    }

    /// The first admin, signed in to the dashboard.
    static func admin(_ stack: RunningStack) async throws -> PlatformClients {
        try await signIn(stack, email: adminEmail, password: try adminPassword)
    }

    /// A phone's APNs token, new per run: a running stack keeps the devices of earlier runs.
    static func deviceToken() -> String {
        (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
    }

    static func signIn(_ stack: RunningStack, email: String, password: String) async throws -> PlatformClients {
        let (clients, auth) = PlatformClients.signIn(addresses: stack.addresses, store: MemoryTokenStore())
        try await clients.session.adopt(try await auth.loginDashboard(body: .json(.init(email: email, password: password))).ok.body.json)
        return clients
    }

    /// The invited person's password set through the mailed link, which then is gone.
    static func activate(_ stack: RunningStack, email: String, password: String, smtp: SMTPSink) async throws {
        let token = try await smtp.token(after: linkMarker, inMailTo: email)
        let (_, auth) = PlatformClients.signIn(addresses: stack.addresses, store: MemoryTokenStore())
        _ = try await auth.checkPasswordResetLink(query: .init(token: token)).ok
        _ = try await auth.resetPassword(body: .json(.init(token: token, newPassword: password, confirmation: password))).ok
        guard case .gone = try await auth.checkPasswordResetLink(query: .init(token: token)) else {
            throw StackError(description: "a used link must be gone")
        }
    }

    /// The fortune teller's profile, added by an admin once appointment-booker knows the account as a partner (auth's
    /// event crosses the broker); nil until then.
    static func addPartnerProfile(admin: PlatformClients, accountId: String) async throws -> AppointmentsContract.Components.Schemas.Partner? {
        let profile = AppointmentsContract.Components.Schemas.NewPartner(
            accountId: accountId, name: "Madame Journey", description: "Tarot", contact: "+66 2 000 0000", languages: [.th],
            timeZone: "Asia/Bangkok")
        switch try await admin.appointments.createPartner(body: .json(profile)) {
        case .created(let created): return try created.body.json
        case .unprocessableContent: return nil  // not a partner here yet: the event is on its way
        case let other: throw StackError(description: "createPartner answered \(other)")
        }
    }
}
