import Foundation
import Testing

@testable import PlacesImporter

/// When a place counts as closed, which looked-up values are kept, and what the Overpass query asks for (P1, P4, B4).
@Suite("places-importer: what providers' answers mean")
struct ProviderAnswerRulesTests {
    static func key(_ provider: String, _ id: String) -> SourceKey { SourceKey(provider: provider, providerId: id) }

    @Test("P1: a place closes only when no provider lists it and every one of its providers answered completely")
    func closureRules() {
        let (gone, seenAgain, mixed, unjudged, closedBack, closedStill) = (UUID(), UUID(), UUID(), UUID(), UUID(), UUID())
        let closure = PlaceClosure(
            known: [
                .init(id: gone, isClosed: false, sources: [Self.key("osm", "1")]),
                .init(id: seenAgain, isClosed: false, sources: [Self.key("osm", "2")]),
                .init(id: mixed, isClosed: false, sources: [Self.key("osm", "3"), Self.key("yelp", "c")]),
                .init(id: unjudged, isClosed: false, sources: [Self.key("osm", "4"), Self.key("yelp", "d")]),
                .init(id: closedBack, isClosed: true, sources: [Self.key("osm", "5")]),
                .init(id: closedStill, isClosed: true, sources: [Self.key("osm", "6")]),
            ],
            seen: [Self.key("osm", "2"), Self.key("yelp", "c"), Self.key("osm", "5")],
            // Yelp's search was capped this run: it cannot say a place is gone.
            judgedProviders: ["osm"])
        #expect(closure.closing == [gone], "mixed: Yelp still lists it; unjudged: Yelp's answer was incomplete")
        #expect(closure.reopening == [closedBack])
        let everyoneJudged = PlaceClosure(
            known: [.init(id: unjudged, isClosed: false, sources: [Self.key("osm", "4"), Self.key("yelp", "d")])], seen: [],
            judgedProviders: ["osm", "yelp"])
        #expect(everyoneJudged.closing == [unjudged])
    }
    @Test("P4: a looked-up website without a scheme gets https, other schemes are dropped; P1: no Yelp site of any country is a website")
    func lookupValuesFitTheSave() {
        #expect(NominatimClient.website("www.cafe.example") == "https://www.cafe.example")
        #expect(NominatimClient.website("http://cafe.example/menu") == "http://cafe.example/menu")
        #expect(NominatimClient.website("ftp://cafe.example") == nil && NominatimClient.website("call us") == nil)
        #expect(YelpProvider.website("https://www.yelp.de/biz/x") == nil && YelpProvider.website("https://m.yelp.co.uk/biz/x") == nil)
        #expect(YelpProvider.website("https://yelp.com/biz/x") == nil)
        #expect(YelpProvider.website("https://cafe.example") == "https://cafe.example")
        #expect(YelpProvider.website("https://yelpcafe.example") == "https://yelpcafe.example")
    }
    @Test("B4: the Overpass query names places of worship only when asked; the tag maps to the worship category")
    func queryAndCategory() {
        let box = GeoBox(south: 52.51, west: 13.38, north: 52.53, east: 13.41)
        #expect(!OverpassProvider.query(for: box).contains("place_of_worship"))
        #expect(OverpassProvider.query(for: box, placesOfWorship: true).contains(#"nwr["amenity"="place_of_worship"]["name"]"#))
        #expect(OverpassProvider.category(["amenity": "place_of_worship"]) == .worship)
        #expect(PlacesConfiguration.parseAreas("a:1,2,3,4:worship")?.first?.placesOfWorship == true)
        #expect(PlacesConfiguration.parseAreas("a:1,2,3,4")?.first?.placesOfWorship == false)
        #expect(PlacesConfiguration.parseAreas("a:1,2,3,4:temples") == nil)
    }
}
