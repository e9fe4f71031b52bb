import Foundation

/// Quotas and caches that count in fixed wall-clock minutes make a test that straddles a minute's turn see a
/// fresh window halfway: its 429 never comes, its cached answer is gone. Such a test starts at the beginning of
/// a minute, which leaves it nearly the whole minute even on a loaded machine.
public func waitForTheStartOfAMinute(latestSecond: Int = 5) async throws {
    let second = Int(Date().timeIntervalSince1970) % 60
    if second > latestSecond { try await Task.sleep(for: .seconds(60 - second)) }
}

/// The wall-clock minute, as the quotas and caches number it.
public func currentMinute() -> Int { Int(Date().timeIntervalSince1970 / 60) }
