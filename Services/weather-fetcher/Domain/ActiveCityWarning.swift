import Foundation

/// A warning of the city that has not ended (W5), as its weather shows it.
package struct ActiveCityWarning: Sendable, Equatable {
    package var warningId: UUID
    package var announcementNumber: String
    package var severity: String
    package var status: String
    package var statusDescription: String
    package var onset: Date
    package var ends: Date

    package init(warningId: UUID, announcementNumber: String, severity: String, status: String, statusDescription: String, onset: Date, ends: Date) {
        self.warningId = warningId
        self.announcementNumber = announcementNumber
        self.severity = severity
        self.status = status
        self.statusDescription = statusDescription
        self.onset = onset
        self.ends = ends
    }
}
