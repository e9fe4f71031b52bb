import Foundation

/// Reads the catalogue TSV written by `scripts/build-city-catalogue.py`: a `#` comment naming the source,
/// a header row, then one city per line. The last column, GeoNames' comma-separated alternate names (W1:
/// München, Cologne), may be absent: a file written before it was added still loads, without them.
struct CatalogueFile: Sendable {
    static let columns = [
        "geonameid", "name", "asciiname", "country_code", "country", "admin1_code", "region", "latitude",
        "longitude", "timezone", "population", "alternatenames",
    ]
    /// The header of files written before the alternate names column.
    static let columnsWithoutAlternates = Array(columns.dropLast())

    let cities: [City]
    /// Other names of each city, by city id (only cities that have some).
    let alternateNames: [Int: [String]]
    /// Identifies the file's content, so a changed file is imported again and an unchanged one is not.
    let checksum: String

    struct FormatError: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "city catalogue line \(line): \(reason)" }
    }

    init(contentsOf url: URL) throws {
        try self.init(text: String(contentsOf: url, encoding: .utf8))
    }

    init(text: String) throws {
        var cities: [City] = []
        var alternateNames: [Int: [String]] = [:]
        var header: [String]?
        var hasher = FNV1a()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            hasher.combine(rawLine.utf8)
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let columns = header else {
                guard fields == Self.columns || fields == Self.columnsWithoutAlternates else {
                    throw FormatError(line: index + 1, reason: "expected the header \(Self.columns.joined(separator: ","))")
                }
                header = fields
                continue
            }
            guard fields.count == columns.count else {
                throw FormatError(line: index + 1, reason: "expected \(columns.count) tab-separated fields, found \(fields.count)")
            }
            let city = try Self.city(fields, line: index + 1)
            cities.append(city)
            if fields.count == Self.columns.count {
                let names = Self.alternates(fields[11], of: city)
                if !names.isEmpty { alternateNames[city.id] = names }
            }
        }
        guard header != nil else { throw FormatError(line: 1, reason: "no header row") }
        self.cities = cities
        self.alternateNames = alternateNames
        checksum = String(hasher.value, radix: 16)
    }

    private static func city(_ fields: [String], line: Int) throws -> City {
        guard let id = Int(fields[0]), let latitude = Double(fields[7]), let longitude = Double(fields[8]),
            let population = Int(fields[10]), (-90...90).contains(latitude), (-180...180).contains(longitude),
            !fields[1].isEmpty, TimeZone(identifier: fields[9]) != nil
        else {
            throw FormatError(line: line, reason: "malformed id, name, coordinates, time zone or population")
        }
        return City(
            id: id, name: fields[1], asciiName: fields[2].isEmpty ? fields[1] : fields[2], countryCode: fields[3],
            country: fields[4], region: fields[6], latitude: latitude, longitude: longitude, timeZone: fields[9],
            population: population)
    }
}

extension CatalogueFile {
    /// The non-empty names of a comma-separated list, without NUL characters (Postgres refuses them).
    static func alternates(_ field: String, of city: City) -> [String] {
        field.split(separator: ",").compactMap { name in
            let trimmed = name.filter { $0 != "\u{0}" }.trimmingCharacters(in: .whitespaces)
            return trimmed.isEmpty || trimmed == city.name ? nil : String(trimmed.prefix(100))
        }
    }
}

/// 64-bit FNV-1a: a content fingerprint, not a security measure.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
        value ^= 0x0a
        value = value &* 0x0000_0100_0000_01b3
    }
}
