/// Why the device rules refuse a registration or removal (A5): outcomes of the domain, not HTTP answers. The API maps
/// each to its error (`WarningErrors.answer(for:)`).
package enum DeviceRefusal: Error, Equatable {
    /// Another account holds the token and the registration does not come from its app install.
    case registeredElsewhere
    /// The user has no device with the token.
    case notFound
}
