import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Conversions between the domain and the generated schemas. Enums map by exhaustive switch, so a case
/// added on one side and not the other does not compile.
extension Components.Schemas.Account {
    init(_ account: Account) {
        // In lower case, as the access token's `sub` and every other service spell it (`AccountKey`).
        self.init(
            id: AccountKey.of(account.id), email: account.email, kind: .init(account.kind), role: .init(account.role),
            displayName: account.displayName,
            // Stored entitlements are written through `Entitlement` only; a stray value is left out, not a 500.
            entitlements: account.entitlements.sorted().compactMap { Entitlement(rawValue: $0).map(Components.Schemas.Entitlement.init) },
            banned: account.banned)
    }
}

extension Components.Schemas.Account.KindPayload {
    init(_ kind: AccountKind) {
        switch kind {
        case .dashboard: self = .dashboard
        case .survey: self = .survey
        case .install: self = .install
        case .horoscope: self = .horoscope
        }
    }
}

extension Components.Schemas.Role {
    init(_ role: UserRole) {
        switch role {
        case .guest: self = .guest
        case .user: self = .user
        case .partner: self = .partner
        case .admin: self = .admin
        }
    }

    var domain: UserRole {
        switch self {
        case .guest: .guest
        case .user: .user
        case .partner: .partner
        case .admin: .admin
        }
    }
}

extension Components.Schemas.Entitlement {
    init(_ entitlement: Entitlement) {
        switch entitlement {
        case .tarot: self = .tarot
        case .fortuneStick: self = .fortuneStick
        case .compatibility: self = .compatibility
        case .phoneNumber: self = .phoneNumber
        case .contactFortuneTeller: self = .contactFortuneTeller
        }
    }

    var domain: Entitlement {
        switch self {
        case .tarot: .tarot
        case .fortuneStick: .fortuneStick
        case .compatibility: .compatibility
        case .phoneNumber: .phoneNumber
        case .contactFortuneTeller: .contactFortuneTeller
        }
    }
}

extension Components.Schemas.FlowStep {
    init(_ step: FlowStep) {
        switch step {
        case .welcome: self = .welcome
        case .login: self = .login
        case .retry: self = .retry
        case .signUp: self = .signUp
        case .forgotPin: self = .forgotPin
        }
    }
}

extension Components.Responses.Message {
    /// A `Message` answer.
    static func message(_ text: String, next: FlowStep? = nil, email: String? = nil) -> Self {
        .init(body: .json(.init(message: text, next: next.map(Components.Schemas.FlowStep.init), email: email)))
    }
}

extension Components.Responses.Session {
    static func session(_ session: Components.Schemas.Session) -> Self {
        .init(body: .json(session))
    }
}
