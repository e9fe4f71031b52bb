import Foundation

/// Quotas and caches that count in fixed wall-clock minutes make a test that straddles a minute's turn see a
/// fresh window halfway: its 429 never comes, its cached answer is gone. Such a test waits for the next minute
/// only when the current one has less than `seconds` left: its few requests take a second or two even on a
/// loaded machine, and waiting for every minute's start cost each such test 30 s on average.
public func waitForRoomInTheMinute(seconds: Double = 30) async throws {
    let left = 60 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
    if left < seconds { try await Task.sleep(for: .seconds(left + 0.1)) }
}

/// The wall-clock minute, as the quotas and caches number it.
public func currentMinute() -> Int { Int(Date().timeIntervalSince1970 / 60) }
