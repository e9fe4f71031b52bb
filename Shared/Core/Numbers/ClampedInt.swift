extension Double {
    /// Rounded to the nearest whole number, clamped to what an `Int` holds (0 for NaN). `Int(someDouble)` traps
    /// on NaN, infinity and anything beyond ±9.2e18; values that come from outside (providers, events, rows
    /// stored from them) go through this instead, so an absurd value shows as an absurd number, not a crash.
    public var roundedClampedInt: Int {
        let rounded = self.rounded()
        guard rounded.isFinite else { return isNaN ? 0 : (self > 0 ? Int.max : Int.min) }
        // Int.max is not representable as a Double; 2^63 is the first value past it.
        if rounded >= 9_223_372_036_854_775_808.0 { return Int.max }
        if rounded < -9_223_372_036_854_775_808.0 { return Int.min }
        return Int(rounded)
    }
}
