import Foundation
import NIOHTTP1
import Synchronization

/// The base URL of each service of the running stack, and the apps' telemetry keys.
struct StackAddresses: Sendable {
    var weather: String
    var warnings: String
    var places: String
    var auth: String
    var analytics: String
    var appointments: String
    var telemetryKeys: [String: String]
}

/// One app session of the load, a short journey through each app with the phone's own installs: the weather of a
/// city (signed in: the view joins the user's recents), places nearby, the daily horoscope, the session's telemetry
/// in one batch, and for one session in `bookingEvery` a booking of the fortune teller's next free slot.
final class StackSession: Sendable {
    let http: StackHTTP
    let stack: StackAddresses
    let people: [StackSetup.AppUser]
    let cities: [Int]
    let points: [(lat: Double, lon: Double)]
    let partnerId: String?
    let slots: [String]
    let bookingEvery: Int
    /// The next unbooked slot of `slots`, counted across the rate steps.
    let nextSlot: SlotCounter

    /// Shared by the sessions of every step.
    final class SlotCounter: Sendable {
        let next = Atomic<Int>(0)
    }

    init(
        http: StackHTTP, stack: StackAddresses, people: [StackSetup.AppUser], cities: [Int], points: [(lat: Double, lon: Double)],
        partnerId: String?, slots: [String], bookingEvery: Int, nextSlot: SlotCounter
    ) {
        (self.http, self.stack, self.people, self.cities, self.points) = (http, stack, people, cities, points)
        (self.partnerId, self.slots, self.bookingEvery, self.nextSlot) = (partnerId, slots, bookingEvery, nextSlot)
    }

    static let steps = ["weather: city view", "places: nearby", "horoscope: daily", "telemetry: batch", "booking: book a slot"]
    static let signs = [
        "aries", "taurus", "gemini", "cancer", "leo", "virgo", "libra", "scorpio", "sagittarius", "capricorn", "aquarius", "pisces",
    ]

    /// A loopback address of its own per phone (127.1.0.1, 127.1.0.2, ...).
    static func address(ofPhone phone: Int) -> String { "127.1.\(phone / 250).\(phone % 250 + 1)" }

    func run(_ index: Int, intended: ContinuousClock.Instant, recorder: OpenLoopLoad.Recorder) async -> Bool {
        let user = people[index % people.count]
        let city = cities[index % cities.count]
        let point = points[index % points.count]
        var since = intended
        func step(_ name: String, _ request: () async throws -> StackHTTP.Answer) async -> Bool {
            defer { since = .now }
            return await OpenLoopLoad.timed(name, since: since, recorder: recorder, request)
        }
        guard
            await step(Self.steps[0], { try await http.send(.GET, "\(stack.weather)/v1/cities/\(city)/weather", token: user.weather.accessToken) }),
            await step(
                Self.steps[1],
                {
                    try await http.send(
                        .GET, "\(stack.places)/v1/places?lat=\(point.lat)&lon=\(point.lon)&radius=1000", token: user.places.accessToken)
                }),
            await step(
                Self.steps[2],
                {
                    try await http.send(
                        .GET, "\(stack.appointments)/v1/horoscope/\(Self.signs[index % 12])?tz=Asia/Bangkok", token: user.horoscope.accessToken)
                }),
            await step(
                Self.steps[3],
                {
                    try await http.send(
                        .POST, "\(stack.analytics)/v1/telemetry", body: telemetry(user: user.weather, device: index % people.count, city: city),
                        headers: [("X-App-Key", stack.telemetryKeys["weather"] ?? "")],
                        // Each phone from its own address, as phones are: analytics limits events per client address.
                        from: Self.address(ofPhone: index % people.count))
                })
        else { return false }
        guard index % bookingEvery == 0, let partnerId else { return true }
        let slot = nextSlot.next.add(1, ordering: .relaxed).oldValue
        // Every slot handed out: the session ends without a booking rather than asking for a taken one (a 409).
        guard slot < slots.count else { return true }
        // The booker is the next phone in turn: appointment-booker allows one account 3 live bookings with a partner.
        let booker = people[(index / bookingEvery) % people.count]
        return await step(Self.steps[4]) {
            try await http.send(
                .POST, "\(stack.appointments)/v1/partners/\(partnerId)/bookings", body: #"{"startsAt":"\#(slots[slot])"}"#,
                token: booker.horoscope.accessToken, headers: [("Idempotency-Key", "bench-\(index)-\(slot)")])
        }
    }

    /// Whether bookings ran out of slots in the run.
    var slotsRanOut: Bool { nextSlot.next.load(ordering: .relaxed) > slots.count }

    /// The session's events: the city viewed, the city screen and the search feature.
    private func telemetry(user: StackSetup.Install, device: Int, city: Int) -> String {
        let now = Date().formatted(.iso8601)
        let common = #""occurredAt":"\#(now)","deviceId":"bench-device-\#(device)","userId":"\#(user.accountId)""#
        let events = [
            #"{"id":"\#(UUID().uuidString.lowercased())","kind":"city_viewed","cityId":\#(city),\#(common)}"#,
            #"{"id":"\#(UUID().uuidString.lowercased())","kind":"screen_viewed","screen":"city",\#(common)}"#,
            #"{"id":"\#(UUID().uuidString.lowercased())","kind":"feature_used","feature":"search",\#(common)}"#,
        ]
        return #"{"events":[\#(events.joined(separator: ","))]}"#
    }
}
