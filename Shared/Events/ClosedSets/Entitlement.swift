/// The paid features of the horoscope app (U6). Tokens carry them; every service checks them from the claims.
public enum Entitlement: String, CaseIterable, Codable, Sendable {
    case tarot
    case fortuneStick = "fortune_stick"
    case compatibility
    case phoneNumber = "phone_number"
    case contactFortuneTeller = "contact_fortune_teller"
}

/// Why an account got a paid feature (U6).
public enum EntitlementSource: String, CaseIterable, Codable, Sendable {
    /// An admin granted it.
    case admin
    /// A payment the provider confirmed.
    case payment
    /// An install account's paid feature carried into the account it merged into (U9).
    case merge
}
