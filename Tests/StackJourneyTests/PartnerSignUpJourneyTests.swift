import AppointmentsContract
import Foundation
import PlatformClient
import TestSupport
import Testing

extension StackJourneys {
    /// A fortune teller joins by themselves (B6) through the running stack, with the generated clients only: an
    /// install applies with the current terms, the admins are mailed, the first admin approves, auth makes the
    /// account a partner (events between the services), the fee and an ad are paid through the provider's signed
    /// notifications, and the teller is listed, promoted.
    @Suite("App journey through the stack: a fortune teller joins")
    struct PartnerSignUpJourneyTests {
        @Test("install → terms → apply → admins mailed → approved → partner token → fee paid → listed → ad paid → promoted")
        func partnerSignUp() async throws {
            let report = JourneyReport(app: "partner")
            defer { report.finish() }
            let providers = JourneyProviders.current
            let smtp = try providers.mailSink()
            let payments = PaymentProvider(secret: try providers.value("PAYMENT_WEBHOOK_SECRET", fresh: "whsec-journey-\(UUID().uuidString)"))
            var settings = try JourneyPeople.settings(smtp: smtp)
            settings["PAYMENT_WEBHOOK_SECRET"] = payments.secret
            settings.merge(JourneyProviders.trustingInstalls) { $1 }
            try await RunningStack.run(settings: settings) { stack in
                try await journey(stack, smtp: smtp, payments: payments, report: report)
            }
        }

        func journey(_ stack: RunningStack, smtp: SMTPSink, payments: PaymentProvider, report: JourneyReport) async throws {
            let teller = PlatformClients.install(
                app: .horoscope, installId: "journey-teller-\(uniqueSuffix())", addresses: stack.addresses, store: MemoryTokenStore())
            let accountId = try await report.step("install: an account from auth") { try await teller.session.accountId().lowercased() }
            let name = "Madame \(uniqueSuffix())"
            try await report.step("apply with the current terms") {
                let terms = try await teller.appointments.getPartnerTerms().ok.body.json
                let application = try await teller.appointments.applyAsPartner(
                    body: .json(
                        .init(
                            name: name, description: "Tarot and palms", contact: "LINE: \(name)", languages: [.th, .en],
                            timeZone: "Asia/Bangkok", termsVersion: terms.version))
                ).created.body.json
                try #require(application.status == .pending && application.termsVersion == terms.version)
            }
            _ = try await report.eventually("the admins are mailed about it", within: .seconds(60)) { () async throws -> Bool? in
                smtp.mailbox.contains("A fortune teller applied: \(name)") ? true : nil
            }
            let admin = try await report.step("the first admin finds it pending and approves it") {
                let admin = try await JourneyPeople.admin(stack)
                let pending = try await admin.appointments.listPartnerApplications(query: .init(status: .pending, pageSize: 100)).ok.body.json
                try #require(pending.applications.contains { $0.accountId.lowercased() == accountId })
                _ = try await admin.appointments.decidePartnerApplication(path: .init(accountId: accountId), body: .json(.init(approve: true))).ok
                return admin
            }
            let feeReference: String = try await report.eventually(
                "auth makes the account a partner: its next token opens the partner's profile", within: .seconds(60)
            ) { () async throws -> String? in
                try await teller.session.renewNow()
                guard case .ok(let ok) = try await teller.appointments.getMyPartnerProfile() else { return nil }
                let profile = try ok.body.json
                return profile.approved && profile.feeStatus == .unpaid && !profile.listed ? profile.feeCheckoutReference : nil
            }
            try await report.step("the fee paid through the provider") {
                try await payments.notifyPartnerPaid(reference: feeReference, appointments: stack.addresses.appointments)
                let profile = try await teller.appointments.getMyPartnerProfile().ok.body.json
                try #require(profile.feeStatus == .paid)
            }
            // Listed once appointment-booker has auth's user.role-changed too (it crosses the broker).
            _ = try await report.eventually("the teller is listed", within: .seconds(60)) { () async throws -> Bool? in
                try await teller.appointments.getMyPartnerProfile().ok.body.json.listed ? true : nil
            }
            try await report.step("an ad bought and paid promotes the teller") {
                let now = Date()
                let ad = try await teller.appointments.createMyAd(
                    body: .json(.init(startsAt: now.addingTimeInterval(-60), endsAt: now.addingTimeInterval(86_400)))
                ).created.body.json
                try #require(ad.paymentStatus == .unpaid && !ad.active)
                try await payments.notifyPartnerPaid(reference: ad.checkoutReference, appointments: stack.addresses.appointments)
                let ads = try await teller.appointments.listMyAds().ok.body.json.ads
                try #require(ads.contains { $0.id == ad.id && $0.paymentStatus == .paid && $0.active && $0.markedBy == .provider })
                let listed = try await admin.appointments.listPartners(query: .init(pageSize: 100)).ok.body.json.partners
                try #require(listed.first { $0.id.lowercased() == accountId }?.promoted == true)
            }
        }
    }
}
