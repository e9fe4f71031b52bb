import Foundation
import PlatformEvents

/// A warning as stored and served (A1, A2). Its kind and severity are the rules' closed sets; `status` is the
/// English title the detector wrote ("Severe heat warning"), free text to the rest of the service.
struct Warning: Sendable, Equatable {
    var id: UUID
    var cityId: Int
    var kind: WarningRule.Kind
    var announcementNumber: String
    var location: String
    var region: String
    var latitude: Double
    var longitude: Double
    var timeZone: String
    var severity: Severity
    var status: String
    var statusDescription: String
    var onset: Date
    var ends: Date

    var notice: WarningNotice {
        WarningNotice(
            warningId: id, cityId: cityId, announcementNumber: announcementNumber, location: location, region: region, kind: kind.rawValue,
            severity: severity.capName, status: status, statusDescription: statusDescription, onset: onset, ends: ends)
    }
}
