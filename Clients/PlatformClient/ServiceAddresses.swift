import Foundation

/// Where each service of a deployment answers. Behind one gateway they may all be the same address.
public struct ServiceAddresses: Sendable, Hashable {
    public var weather: URL
    public var warnings: URL
    public var places: URL
    public var auth: URL
    public var analytics: URL
    public var appointments: URL

    public init(weather: URL, warnings: URL, places: URL, auth: URL, analytics: URL, appointments: URL) {
        self.weather = weather
        self.warnings = warnings
        self.places = places
        self.auth = auth
        self.analytics = analytics
        self.appointments = appointments
    }

    /// Every service behind one address (a gateway or an ingress that routes by path).
    public init(gateway: URL) {
        self.init(weather: gateway, warnings: gateway, places: gateway, auth: gateway, analytics: gateway, appointments: gateway)
    }
}
