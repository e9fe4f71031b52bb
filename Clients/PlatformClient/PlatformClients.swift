import AnalyticsContract
import AppointmentsContract
import AuthContract
import Foundation
import OpenAPIRuntime
import PlacesContract
import WarningsContract
import WeatherContract

/// The six services' generated clients for one app, sharing its session: each request carries the session's
/// token and is retried once after a 401 (`SessionMiddleware`).
public struct PlatformClients: Sendable {
    public let weather: WeatherContract.Client
    public let warnings: WarningsContract.Client
    public let places: PlacesContract.Client
    public let auth: AuthContract.Client
    public let analytics: AnalyticsContract.Client
    public let appointments: AppointmentsContract.Client
    public let session: AppSession

    public init(addresses: ServiceAddresses, session: AppSession, transport: any ClientTransport = PlatformClients.defaultTransport) {
        let middlewares = [SessionMiddleware(session: session)]
        self.session = session
        weather = WeatherContract.Client(serverURL: addresses.weather, transport: transport, middlewares: middlewares)
        warnings = WarningsContract.Client(serverURL: addresses.warnings, transport: transport, middlewares: middlewares)
        places = PlacesContract.Client(serverURL: addresses.places, transport: transport, middlewares: middlewares)
        auth = AuthContract.Client(serverURL: addresses.auth, transport: transport, middlewares: middlewares)
        analytics = AnalyticsContract.Client(serverURL: addresses.analytics, transport: transport, middlewares: middlewares)
        appointments = AppointmentsContract.Client(serverURL: addresses.appointments, transport: transport, middlewares: middlewares)
    }

    /// An app install's clients: its account is created on first use and kept in `store` (U8).
    public static func install(
        app: AuthContract.Operations.CreateInstallAccount.Input.Body.JsonPayload.AppPayload, installId: String,
        addresses: ServiceAddresses, store: any TokenStore, transport: any ClientTransport = PlatformClients.defaultTransport
    ) -> PlatformClients {
        let auth = AuthContract.Client(serverURL: addresses.auth, transport: transport)
        let session = AppSession.install(app: app, installId: installId, auth: auth, store: store)
        return PlatformClients(addresses: addresses, session: session, transport: transport)
    }

    /// Clients for an app that signs in itself (survey, dashboard): signed out until it hands a sign-in's answer
    /// to `session.adopt`; `signIn` is the auth client to sign in with (no token of its own).
    public static func signIn(
        addresses: ServiceAddresses, store: any TokenStore, transport: any ClientTransport = PlatformClients.defaultTransport
    ) -> (clients: PlatformClients, signIn: AuthContract.Client) {
        let auth = AuthContract.Client(serverURL: addresses.auth, transport: transport)
        return (PlatformClients(addresses: addresses, session: AppSession(auth: auth, store: store), transport: transport), auth)
    }

    /// AsyncHTTPClient's shared client, 30 s a request, each body sent whole (see `WholeBodyTransport`).
    public static var defaultTransport: any ClientTransport { WholeBodyTransport() }
}
