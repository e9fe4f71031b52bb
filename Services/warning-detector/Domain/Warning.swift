import Foundation
import PlatformEvents

/// A warning as stored and served (A1, A2).
struct Warning: Sendable, Equatable {
    var id: UUID
    var cityId: Int
    var kind: String
    var announcementNumber: String
    var location: String
    var region: String
    var latitude: Double
    var longitude: Double
    var timeZone: String
    var severity: String
    var status: String
    var statusDescription: String
    var onset: Date
    var ends: Date

    var notice: WarningNotice {
        WarningNotice(
            warningId: id, cityId: cityId, announcementNumber: announcementNumber, location: location, region: region, kind: kind,
            severity: severity, status: status, statusDescription: statusDescription, onset: onset, ends: ends)
    }
}
