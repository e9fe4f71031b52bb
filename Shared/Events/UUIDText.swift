import Foundation

/// Reads the canonical 36-character UUID text (`8-4-4-4-12` hex digits, either case) without Foundation's
/// `UUID(uuidString:)`, which goes through `sscanf` and was the largest single cost of decoding an event
/// header in a profile of the consumer bench. Anything else answers nil.
public enum UUIDText {
    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var octets = [UInt8](repeating: 0, count: 16)
            var octet = 0
            var index = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard bytes[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                    continue
                }
                guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return nil }
                octets[octet] = high << 4 | low
                octet += 1
                index += 2
            }
            return UUID(
                uuid: (
                    octets[0], octets[1], octets[2], octets[3], octets[4], octets[5], octets[6], octets[7],
                    octets[8], octets[9], octets[10], octets[11], octets[12], octets[13], octets[14], octets[15]
                ))
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
