import Foundation
import PlatformCore
import PlatformEvents

/// Every place of the catalogue in memory, bucketed by a grid of `cellDegrees` squares (P2): the nearby
/// route reads it instead of asking Postgres per request. Radius and box answers match the PostGIS queries
/// they replace (`ST_DWithin` on the sphere, nearest first then by id; a box by match name then id); the
/// differential test compares the two.
package struct PlaceGrid: Sendable {
    /// A place as the nearby list shows it, with its JSON written once when it enters the grid. A class, so
    /// that collecting and sorting candidates moves one reference per place instead of its strings.
    package final class Entry: Sendable {
        package let id: UUID
        /// The id's 16 bytes as two big-endian halves: compared in that order they sort like Postgres' uuids.
        package let idOrderKey: (high: UInt64, low: UInt64)
        package let latitude: Double
        package let longitude: Double
        package let matchName: String
        package let addedBy: String?
        /// The adder of a place awaiting review: listed for them only (X3); nil once approved.
        package let pendingFor: String?
        /// The place as an answer writes it, made once when it enters the grid (the API's JSON object without its
        /// closing brace: the asker's pin and the distance follow).
        package let rendered: String

        package init(_ place: Place, matchName: String, rendered: String) {
            id = place.id
            idOrderKey = withUnsafeBytes(of: place.id.uuid) { bytes in
                (UInt64(bigEndian: bytes.loadUnaligned(as: UInt64.self)), UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
            }
            latitude = place.latitude
            longitude = place.longitude
            self.matchName = matchName
            addedBy = place.addedBy
            pendingFor = place.review == .pending ? place.addedBy : nil
            self.rendered = rendered
        }

        package func visible(to viewer: String) -> Bool { pendingFor.map { $0 == viewer } ?? true }
    }

    package struct Found: Sendable {
        package var entry: Entry
        package var distanceMetres: Double?

        package init(entry: Entry, distanceMetres: Double? = nil) {
            self.entry = entry
            self.distanceMetres = distanceMetres
        }
    }

    private struct Cell: Hashable {
        package var row: Int
        package var column: Int

        package init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    package let cellDegrees: Double
    /// Cells around a circle of latitude; at least one, whatever the configured cell size.
    private let columnsAround: Int
    private var cells: [Cell: [Entry]] = [:]
    private var cellOfPlace: [UUID: Cell] = [:]

    package init(cellDegrees: Double = 0.01) {
        self.cellDegrees = cellDegrees
        columnsAround = max(1, (360 / cellDegrees).roundedClampedInt)
    }

    package var count: Int { cellOfPlace.count }

    /// Adds the place, or replaces what the grid knew of it (it may have moved cells).
    package mutating func upsert(_ entry: Entry) {
        let cell = cell(latitude: entry.latitude, longitude: entry.longitude)
        if let previous = cellOfPlace[entry.id] {
            cells[previous]?.removeAll { $0.id == entry.id }
            if cells[previous]?.isEmpty == true { cells[previous] = nil }
        }
        cells[cell, default: []].append(entry)
        cellOfPlace[entry.id] = cell
    }

    /// Takes the place out (it closed, P1); nothing happens for a place the grid does not hold.
    package mutating func remove(_ id: UUID) {
        guard let cell = cellOfPlace.removeValue(forKey: id) else { return }
        cells[cell]?.removeAll { $0.id == id }
        if cells[cell]?.isEmpty == true { cells[cell] = nil }
    }

    /// Places within `radiusMetres` of the point that `viewer` may see, nearest first (ties by id), `offset` and
    /// `limit` applied.
    package func near(latitude: Double, longitude: Double, radiusMetres: Double, viewer: String, limit: Int, offset: Int) -> [Found] {
        // The circle's extent (plus a hair for rounding): δ in latitude, asin(sin δ / cos φ) in longitude,
        // every longitude when it reaches a pole.
        let angle = radiusMetres / GeoDistance.sphereRadiusMetres
        let latitudeSpan = angle * 180 / .pi + 1e-9
        let south = max(-90, latitude - latitudeSpan)
        let north = min(90, latitude + latitudeSpan)
        let ratio = sin(angle) / cos(latitude * .pi / 180)
        let allLongitudes = north >= 90 || south <= -90 || ratio >= 1
        let longitudeSpan = allLongitudes ? 180 : asin(ratio) * 180 / .pi + 1e-9
        var found: [Found] = []
        visit(
            south: south, north: north, west: allLongitudes ? -180 : longitude - longitudeSpan,
            east: allLongitudes ? 180 : longitude + longitudeSpan
        ) { entry in
            guard entry.visible(to: viewer) else { return }
            let distance = GeoDistance.metres(from: (latitude, longitude), to: (entry.latitude, entry.longitude))
            if distance <= radiusMetres { found.append(Found(entry: entry, distanceMetres: distance)) }
        }
        found.sort { a, b in
            let (left, right) = (a.distanceMetres ?? 0, b.distanceMetres ?? 0)
            return left != right ? left < right : Self.idOrder(a.entry, b.entry)
        }
        return Self.page(found, limit: limit, offset: offset)
    }

    /// Places inside the box (edges included) that `viewer` may see, by match name then id, `offset` and `limit`
    /// applied.
    package func inBox(_ box: GeoBox, viewer: String, limit: Int, offset: Int) -> [Found] {
        var found: [Found] = []
        visit(south: box.south, north: box.north, west: box.west, east: box.east) { entry in
            if entry.visible(to: viewer), (box.south...box.north).contains(entry.latitude) && (box.west...box.east).contains(entry.longitude) {
                found.append(Found(entry: entry, distanceMetres: nil))
            }
        }
        found.sort { a, b in
            a.entry.matchName != b.entry.matchName
                ? Self.nameOrder(a.entry.matchName, b.entry.matchName) : Self.idOrder(a.entry, b.entry)
        }
        return Self.page(found, limit: limit, offset: offset)
    }

    /// Calls `body` for every entry in the cells the area touches; longitudes beyond ±180 wrap around.
    private func visit(south: Double, north: Double, west: Double, east: Double, _ body: (Entry) -> Void) {
        let firstRow = row(south), lastRow = row(north)
        let firstColumn = column(west), lastColumn = column(east)
        let columnCount = min(lastColumn - firstColumn + 1, columnsAround)
        for row in firstRow...lastRow {
            for step in 0..<columnCount {
                let column = Self.wrap(firstColumn + step, columnsAround: columnsAround)
                for entry in cells[Cell(row: row, column: column)] ?? [] { body(entry) }
            }
        }
    }

    private func cell(latitude: Double, longitude: Double) -> Cell {
        Cell(row: row(latitude), column: Self.wrap(column(longitude), columnsAround: columnsAround))
    }

    private func row(_ latitude: Double) -> Int { ((latitude + 90) / cellDegrees).rounded(.down).roundedClampedInt }
    private func column(_ longitude: Double) -> Int { ((longitude + 180) / cellDegrees).rounded(.down).roundedClampedInt }

    private static func wrap(_ column: Int, columnsAround: Int) -> Int {
        ((column % columnsAround) + columnsAround) % columnsAround
    }

    private static func page(_ found: [Found], limit: Int, offset: Int) -> [Found] {
        guard offset < found.count else { return [] }
        return Array(found[offset..<min(found.count, offset + limit)])
    }

    /// Postgres orders uuids by their bytes, first to last.
    private static func idOrder(_ a: Entry, _ b: Entry) -> Bool {
        a.idOrderKey.high != b.idOrderKey.high ? a.idOrderKey.high < b.idOrderKey.high : a.idOrderKey.low < b.idOrderKey.low
    }

    /// Match names are lower-case letters and digits; compared by code point (Postgres `COLLATE "C"`).
    private static func nameOrder(_ a: String, _ b: String) -> Bool { a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) }
}
