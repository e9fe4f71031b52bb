import Foundation
import PlatformEvents

/// A warning as stored and served (A1, A2). Its kind and severity are the rules' closed sets; `status` is the
/// English title the detector wrote ("Severe heat warning"), free text to the rest of the service.
package struct Warning: Sendable, Equatable {
    package var id: UUID
    package var cityId: Int
    package var kind: WarningRule.Kind
    package var announcementNumber: String
    package var location: String
    package var region: String
    package var latitude: Double
    package var longitude: Double
    package var timeZone: String
    package var severity: Severity
    package var status: String
    package var statusDescription: String
    package var onset: Date
    package var ends: Date

    package init(
        id: UUID, cityId: Int, kind: WarningRule.Kind, announcementNumber: String, location: String, region: String, latitude: Double,
        longitude: Double, timeZone: String, severity: Severity, status: String, statusDescription: String, onset: Date, ends: Date
    ) {
        self.id = id
        self.cityId = cityId
        self.kind = kind
        self.announcementNumber = announcementNumber
        self.location = location
        self.region = region
        self.latitude = latitude
        self.longitude = longitude
        self.timeZone = timeZone
        self.severity = severity
        self.status = status
        self.statusDescription = statusDescription
        self.onset = onset
        self.ends = ends
    }

    package var notice: WarningNotice {
        WarningNotice(
            warningId: id, cityId: cityId, announcementNumber: announcementNumber, location: location, region: region, kind: kind,
            severity: severity.cap, status: status, statusDescription: statusDescription, onset: onset, ends: ends)
    }
}
