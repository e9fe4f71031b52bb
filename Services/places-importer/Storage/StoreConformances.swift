import Foundation
import PlacesImporterCore

/// The Postgres stores behind the use cases' protocols.
extension ImportAreaStore: ImportAreaRegistry, ImportRunProgress, OnDemandAreas {}
extension PlaceStore: PlaceCatalogue, PlaceImports {}
extension PlaceReviewStore: PlaceReviewRepository {}
extension UserPlaceStore: UserPlaceRepository, PlaceMarks, NearbyPlaceReads {}
