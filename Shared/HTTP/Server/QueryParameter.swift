import Hummingbird

/// Reads typed query parameters, answering a 400 JSON error that names the parameter and its valid range
/// (`invalid_<name>`) rather than letting a bad value through or crash.
public enum QueryParameter {
    public static func integer(
        _ parameters: Parameters, _ name: String, default fallback: Int? = nil, range: ClosedRange<Int>
    ) throws -> Int {
        guard let text = parameters[name[...]] else {
            if let fallback { return fallback }
            throw APIError.badRequest("missing_\(name)", "query parameter \(name) is required")
        }
        guard let value = Int(text), range.contains(value) else {
            throw APIError.badRequest("invalid_\(name)", "\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    public static func double(
        _ parameters: Parameters, _ name: String, default fallback: Double? = nil, range: ClosedRange<Double>
    ) throws -> Double {
        guard let text = parameters[name[...]] else {
            if let fallback { return fallback }
            throw APIError.badRequest("missing_\(name)", "query parameter \(name) is required")
        }
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw APIError.badRequest("invalid_\(name)", "\(name) must be a number in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    /// `south`, `west`, `north` and `east`, all required, as a box whose south is below its north and whose west
    /// is left of its east (400 `invalid_box` otherwise).
    public static func box(_ parameters: Parameters) throws -> (south: Double, west: Double, north: Double, east: Double) {
        let box = (
            south: try double(parameters, "south", range: -90...90), west: try double(parameters, "west", range: -180...180),
            north: try double(parameters, "north", range: -90...90), east: try double(parameters, "east", range: -180...180)
        )
        guard box.south < box.north, box.west < box.east else {
            throw APIError.badRequest("invalid_box", "south must be below north and west left of east")
        }
        return box
    }

    /// A value from a fixed list.
    public static func choice(
        _ parameters: Parameters, _ name: String, default fallback: String, allowed: [String]
    ) throws -> String {
        guard let text = parameters[name[...]] else { return fallback }
        guard allowed.contains(String(text)) else {
            throw APIError.badRequest("invalid_\(name)", "\(name) must be one of \(allowed.joined(separator: ", "))")
        }
        return String(text)
    }
}
