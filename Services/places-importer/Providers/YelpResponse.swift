/// Yelp Fusion's business search answer (`GET /v3/businesses/search`).
struct YelpSearchResponse: Decodable {
    var businesses: [Business]
    var total: Int

    struct Business: Decodable {
        var id: String
        var name: String
        var coordinates: Coordinates
        var location: Location?
        var phone: String?
        var url: String?
        var categories: [Category]?
        var is_closed: Bool?
        var attributes: Attributes?
    }

    /// Extra facts Yelp adds to some businesses; `business_url` is the business's own site when Yelp knows it.
    struct Attributes: Decodable {
        var business_url: String?
    }

    struct Coordinates: Decodable {
        var latitude: Double?
        var longitude: Double?
    }

    struct Location: Decodable {
        var display_address: [String]?
    }

    struct Category: Decodable {
        var alias: String
        var title: String?
    }
}

/// Yelp's error answer: `{"error": {"code": "...", "description": "..."}}`.
struct YelpErrorResponse: Decodable {
    struct Detail: Decodable {
        var code: String
        var description: String?
    }

    var error: Detail
}
