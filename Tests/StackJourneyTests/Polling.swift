/// The journeys' one way to wait for what a service does in its own time (an event crossing the broker, a mail, an
/// import): `probe` every 200 ms until it finds something, or `JourneyTimeout` after `limit`.
func poll<Found>(within limit: Duration, _ probe: () async throws -> Found?) async throws -> Found {
    let deadline = ContinuousClock.now + limit
    while true {
        if let found = try await probe() { return found }
        guard ContinuousClock.now < deadline else { throw JourneyTimeout(limit: limit) }
        try await Task.sleep(for: .milliseconds(200))
    }
}
