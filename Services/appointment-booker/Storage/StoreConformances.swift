import AppointmentBookerCore
import Foundation

/// The Postgres stores behind the use cases' protocols.
extension BookingStore: BookingLookup, BookingRepository, BookingCancellation, BookingMoves {}
extension PartnerStore: PartnerDirectory {}
extension DailyHoroscopeStore: DailyHoroscopeSettings {}
extension PartnerApplicationStore: PartnerApplications {}
extension PartnerPaymentStore: PartnerPayments {}
extension PartnerStore: PartnerProfiles, PartnerAds {}
extension PrayerStore: PrayerBook {
    func update(_ id: UUID, with edit: PrayerEdit) async throws -> Prayer? {
        try await update(
            id, titleEn: edit.titleEn, titleTh: edit.titleTh, textEn: edit.textEn, textTh: edit.textTh, mediaURL: edit.mediaURL)
    }
}
extension ReadingStore: ReadingArchive {}
extension WorshipPlaceStore: WorshipPlaces {}
extension WorshipRequestStore: WorshipRequests {}
