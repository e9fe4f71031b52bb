import Foundation

/// A HyperLogLog sketch of distinct users (N2), for features with more users than are counted exactly:
/// 2^12 one-byte registers (4 KiB, standard error about 1.6%). Adding is order-free (each register keeps a
/// maximum), so the live consumer and a rebuild that see the same users in another order hold the same
/// sketch and answer the same estimate. The hash is fixed (FNV-1a then a 64-bit finaliser), never Swift's
/// per-process seeded `Hasher`, for the same reason.
package struct HyperLogLog: Equatable, Sendable {
    package static let precision = 12
    package static let registerCount = 1 << precision

    package private(set) var registers: [UInt8]

    package init() { registers = Array(repeating: 0, count: Self.registerCount) }

    /// A stored sketch; nil when it has the wrong size.
    package init?(bytes: [UInt8]) {
        guard bytes.count == Self.registerCount else { return nil }
        registers = bytes
    }

    package mutating func add(_ item: String) {
        let hash = Self.hash(item)
        let index = Int(hash >> UInt64(64 - Self.precision))
        let rest = hash << UInt64(Self.precision)
        // Position of the first 1 bit in the remaining 52 bits, from 1; 53 when they are all zero.
        let rank = UInt8(min(rest.leadingZeroBitCount, 64 - Self.precision) + 1)
        if rank > registers[index] { registers[index] = rank }
    }

    /// The estimated number of distinct items, with the small-range (linear counting) correction.
    package var estimate: Int {
        let m = Double(Self.registerCount)
        var sum = 0.0
        var zeros = 0
        for register in registers {
            sum += 1.0 / Double(UInt64(1) << UInt64(register))
            if register == 0 { zeros += 1 }
        }
        let alpha = 0.7213 / (1 + 1.079 / m)
        let raw = alpha * m * m / sum
        let value = (raw <= 2.5 * m && zeros > 0) ? m * log(m / Double(zeros)) : raw
        // `value` is finite and below 2^64 for any register contents; rounded, clamped, no trap.
        return Int(exactly: value.rounded()) ?? Int.max
    }

    package static func hash(_ item: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in item.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        // murmur3's fmix64 spreads FNV's weak low bits over the whole word.
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        hash = hash &* 0xc4ce_b9fe_1a85_ec53
        hash ^= hash >> 33
        return hash
    }
}
