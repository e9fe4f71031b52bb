import Foundation
import PlatformCore
import PlatformHTTP

/// The analytics-aggregator API generated from `openapi.yaml`: the poll (N3), the hotel survey (N4) and the
/// dashboard's numbers (N2). Telemetry ingest is hand-registered (`TelemetryRoute`). Every operation runs
/// behind an optional `AccessTokenMiddleware`; an operation marked `x-access: admin` requires the admin role before
/// the request is read (`OperationAccessMiddleware`).
struct AnalyticsAPI: APIProtocol {
    let polls: PollStore
    let surveys: SurveyStore
    let stats: StatsQueries
    let cache: StatsAnswers

    /// The caller as the survey and poll tables key them (auth's UUIDs in lower case).
    static func accountKey(_ user: AuthenticatedUser) -> String {
        AccountKey.of(user.id)
    }
}
