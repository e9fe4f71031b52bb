/// The paid features of the horoscope app (U6). Tokens carry them; every service checks them from the claims.
package enum Entitlement: String, CaseIterable, Codable, Sendable {
    case tarot
    case fortuneStick = "fortune_stick"
    case compatibility
    case phoneNumber = "phone_number"
    case contactFortuneTeller = "contact_fortune_teller"
}
