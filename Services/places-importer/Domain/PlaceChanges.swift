import Foundation

/// Where a read of the changed places stopped (P2): the snapshot taken just before it.
package struct PlaceChangeWatermark: Sendable, Equatable {
    /// The first transaction id not yet started when the snapshot was taken.
    package var xmax: String
    /// Transactions that were running then.
    package var inProgress: [String]

    package init(xmax: String, inProgress: [String]) {
        self.xmax = xmax
        self.inProgress = inProgress
    }
}

/// The places changed since a watermark (P2), and where the next read starts.
package struct PlaceChanges: Sendable {
    /// Closed and rejected places come too, so the index drops them.
    package var places: [(place: Place, matchName: String, closed: Bool)]
    /// Where the next read starts.
    package var watermark: PlaceChangeWatermark

    package init(places: [(place: Place, matchName: String, closed: Bool)], watermark: PlaceChangeWatermark) {
        self.places = places
        self.watermark = watermark
    }
}
