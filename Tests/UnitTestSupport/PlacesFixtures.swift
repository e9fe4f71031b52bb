import Foundation

/// Provider answers in their real wire formats, around Berlin Mitte (52.52, 13.40).
public enum PlacesFixtures {
    /// An Overpass `[out:json]` answer with `out center tags`: two cafés, a library way with a centre, a
    /// coworking office, and an unnamed café (which the importer skips).
    public static func overpass(elements: [String] = defaultElements) -> String {
        """
        {"version":0.6,"generator":"Overpass API 0.7.62.1 084b4234","osm3s":{"timestamp_osm_base":"2026-11-23T01:00:00Z",\
        "copyright":"The data included in this document is from www.openstreetmap.org. The data is made available under ODbL."},\
        "elements":[\(elements.joined(separator: ","))]}
        """
    }

    public static let einstein = """
        {"type":"node","id":240109189,"lat":52.5170365,"lon":13.3888599,"tags":{"amenity":"cafe","name":"Café Einstein",\
        "opening_hours":"Mo-Su 08:00-22:00","phone":"+49 30 2043632","addr:street":"Unter den Linden","addr:housenumber":"42",\
        "addr:postcode":"10117","addr:city":"Berlin","internet_access":"wlan"}}
        """
    public static let balzac = """
        {"type":"node","id":1001,"lat":52.5200,"lon":13.4050,"tags":{"amenity":"cafe","name":"Balzac Coffee","website":"https://balzac.example"}}
        """
    public static let library = """
        {"type":"way","id":25380520,"center":{"lat":52.5178,"lon":13.3930},"nodes":[1,2,3],"tags":{"amenity":"library",\
        "name":"Staatsbibliothek zu Berlin","opening_hours":"Mo-Fr 09:00-21:00"}}
        """
    public static let coworking = """
        {"type":"node","id":1002,"lat":52.5250,"lon":13.4020,"tags":{"office":"coworking","name":"St. Oberholz"}}
        """
    public static let unnamed = """
        {"type":"node","id":1003,"lat":52.5210,"lon":13.4010,"tags":{"amenity":"cafe"}}
        """
    public static let defaultElements = [einstein, balzac, library, coworking, unnamed]

    /// A Yelp Fusion business search page.
    public static func yelp(businesses: [String], total: Int) -> String {
        """
        {"businesses":[\(businesses.joined(separator: ","))],"total":\(total),\
        "region":{"center":{"longitude":13.40,"latitude":52.52}}}
        """
    }

    public static func yelpBusiness(
        id: String, name: String, latitude: Double, longitude: Double, alias: String = "coffee", phone: String = "+49301234567",
        businessURL: String? = nil
    ) -> String {
        let attributes = businessURL.map { #","attributes":{"business_temp_closed":null,"menu_url":null,"business_url":"\#($0)"}"# } ?? ""
        return """
            {"id":"\(id)","alias":"\(id)-berlin","name":"\(name)","image_url":"https://s3-media1.fl.yelpcdn.com/bphoto/x/o.jpg",\
            "is_closed":false,"url":"https://www.yelp.com/biz/\(id)","review_count":120,\
            "categories":[{"alias":"\(alias)","title":"Coffee & Tea"}],"rating":4.0,\
            "coordinates":{"latitude":\(latitude),"longitude":\(longitude)},"transactions":[],"price":"€€",\
            "location":{"address1":"Unter den Linden 42","address2":"","address3":null,"city":"Berlin","zip_code":"10117",\
            "country":"DE","state":"BE","display_address":["Unter den Linden 42","10117 Berlin","Germany"]},\
            "phone":"\(phone)","display_phone":"+49 30 1234567","distance":120.5\(attributes)}
            """
    }

    /// Nominatim `format=jsonv2&extratags=1` for an address it knows.
    public static let nominatimFound = """
        [{"place_id":132061440,"licence":"Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright",\
        "osm_type":"node","osm_id":3839482345,"lat":"52.5301","lon":"13.4012","category":"amenity","type":"cafe",\
        "place_rank":30,"importance":0.00001,"addresstype":"amenity","name":"Betahaus Café",\
        "display_name":"Betahaus Café, 12, Rudi-Dutschke-Straße, Kreuzberg, Berlin, 10969, Deutschland",\
        "address":{"amenity":"Betahaus Café","house_number":"12","road":"Rudi-Dutschke-Straße","city":"Berlin","postcode":"10969","country":"Deutschland","country_code":"de"},\
        "extratags":{"opening_hours":"Mo-Fr 08:00-20:00","phone":"+49 30 6098 9000","website":"https://betahaus.example"},\
        "boundingbox":["52.5300","52.5302","13.4011","13.4013"]}]
        """
}
