/// Why the partner rules refuse a change to a profile, its availability or its ads (B1, B6): outcomes of the domain,
/// not HTTP answers. The API maps each to its error (`BookingErrors.answer(for:)`).
package enum PartnerRefusal: Error, Equatable {
    /// auth's events have not made the account a partner, so it gets no profile.
    case notAPartner
    /// The account has a profile already.
    case profileExists
    /// No profile with this id.
    case partnerNotFound
    /// No ad with this id for this partner.
    case adNotFound
    /// The ad's window breaks `AdWindow`: each field, with why.
    case adWindow([String: String])
}
