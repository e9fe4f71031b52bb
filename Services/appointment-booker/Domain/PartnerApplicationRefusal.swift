/// Why the application rules refuse an application or a decision (B6): outcomes of the domain, not HTTP answers.
/// The API maps each to its error (`BookingErrors.answer(for:)`).
package enum PartnerApplicationRefusal: Error, Equatable {
    /// The applicant accepted another version of the terms than the current one (named).
    case termsNotCurrent(current: String)
    /// A pending or approved application of this account is there already.
    case applicationExists
    /// This account has not applied.
    case applicationNotFound
    /// The application was decided already: only a pending one is.
    case alreadyDecided
    /// The applicant's account is not trusted yet with what reaches every admin (a new install account).
    case accountNotTrusted
}
