/// The $50 coupon's code (N4): `HOTEL50-` and 12 characters from an alphabet without look-alikes (no 0/O,
/// 1/I/L), from the system's random source; unique per submission (the table's unique key makes sure, and
/// the store draws again on the rare clash).
package enum CouponCode {
    package static let alphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")

    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let body = (0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] }
        return "HOTEL50-" + String(body)
    }
}
