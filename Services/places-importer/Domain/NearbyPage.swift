import Foundation

/// One page of a nearby list (P2): the places found with the asker's pin for each, and whether more follow;
/// `importing` when the area's first import is known to be under way (P1).
package struct NearbyPage: Sendable {
    package var found: [PlaceGrid.Found]
    package var pins: [String]
    package var page: Int
    package var pageSize: Int
    package var hasMore: Bool
    package var importing: Bool?

    package init(found: [PlaceGrid.Found], pins: [String], page: Int, pageSize: Int, hasMore: Bool, importing: Bool? = nil) {
        self.found = found
        self.pins = pins
        self.page = page
        self.pageSize = pageSize
        self.hasMore = hasMore
        self.importing = importing
    }
}
