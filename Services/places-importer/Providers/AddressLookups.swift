import Foundation
import PlatformCore
import PlatformHTTP

/// Nominatim look-ups on behalf of members (P4), shared fairly: Nominatim's public instance allows about one
/// request a second for the whole service, so one member must not take it from everyone. Each account has
/// `PLACES_LOOKUPS_PER_ACCOUNT_HOUR` look-ups an hour, and at most `PLACES_LOOKUP_QUEUE` wait for the one
/// running; beyond either, a `PlacesRefusal` (429 with `Retry-After`) instead of a queue that grows without bound.
/// Anything else that keeps Nominatim from answering is `PlacesRefusal.lookupUnavailable`. A caller not trusted yet
/// (a new install account) looks nothing up for itself: its look-ups would come out of everyone's second.
struct AddressLookups: Sendable {
    let nominatim: NominatimClient
    let perAccount: WindowQuota
    let gate: AdmissionGate

    init(nominatim: NominatimClient, perAccountHour: Int, queue: Int) {
        self.nominatim = nominatim
        perAccount = WindowQuota(limit: perAccountHour, window: .seconds(3_600))
        gate = AdmissionGate(running: 1, waiting: queue)
    }

    func lookup(_ address: String, for caller: AuthenticatedUser) async throws -> NominatimClient.Match? {
        guard caller.trusted else { throw PlacesRefusal.accountNotTrusted }
        return try await admitted(caller.id) { try await nominatim.lookup(address) }
    }

    func reverse(latitude: Double, longitude: Double, for caller: AuthenticatedUser) async throws -> NominatimClient.Match? {
        guard caller.trusted else { throw PlacesRefusal.accountNotTrusted }
        return try await admitted(caller.id) { try await nominatim.reverse(latitude: latitude, longitude: longitude) }
    }

    private func admitted(
        _ account: String, _ body: () async throws -> NominatimClient.Match?
    ) async throws -> NominatimClient.Match? {
        if let wait = perAccount.take(for: account) { throw PlacesRefusal.lookupsUsedUp(limit: perAccount.limit, retryAfter: wait) }
        do {
            return try await gate.run(throwing: body)
        } catch is AdmissionGate.Full {
            throw PlacesRefusal.lookupBusy
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw PlacesRefusal.lookupUnavailable
        }
    }
}

extension AddressLookups: AddressLocating {
    func locate(_ address: String, account: String) async throws -> LocatedAddress? {
        try await admitted(account) { try await nominatim.lookup(address) }.map {
            LocatedAddress(latitude: $0.latitude, longitude: $0.longitude, openingHours: $0.openingHours, phone: $0.phone, website: $0.website)
        }
    }
}
