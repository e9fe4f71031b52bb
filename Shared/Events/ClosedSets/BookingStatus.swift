/// A booking is live until cancelled; a cancelled one stays for its history (B2).
public enum BookingStatus: String, Codable, Sendable, CaseIterable {
    case booked, cancelled
}

/// Who acts on a booking (B2, B3): its user, its partner, an admin, or the system (a ban).
public enum BookingActor: String, Codable, Sendable, CaseIterable {
    case user, partner, admin, system
}
