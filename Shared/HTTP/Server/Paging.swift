/// The shared `Page` and `PageSize` parameters' ranges (Shared/OpenAPI/shared-components.yaml), which the
/// generated layer does not check.
public enum Paging {
    public static let pages = 1...10_000
    public static let pageSizes = 1...100

    /// 400 naming each parameter out of its documented range.
    public static func check(page: Int, pageSize: Int) throws {
        var problems: [String: String] = [:]
        if !pages.contains(page) { problems["page"] = "must be in \(pages.lowerBound)...\(pages.upperBound)" }
        if !pageSizes.contains(pageSize) { problems["pageSize"] = "must be in \(pageSizes.lowerBound)...\(pageSizes.upperBound)" }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
    }

    /// The page and page size asked for (1 and 50 when left out), checked, with the rows to skip.
    public static func resolve(page: Int?, pageSize: Int?) throws -> (page: Int, size: Int, offset: Int) {
        let page = page ?? 1, size = pageSize ?? 50
        try check(page: page, pageSize: size)
        return (page, size, (page - 1) * size)
    }
}

/// The shared box parameters' ranges (`South`, `West`, `North`, `East` in Shared/OpenAPI/shared-components.yaml),
/// which the generated layer does not check.
public enum BoxRanges {
    /// Each edge outside its documented range, by name.
    public static func problems(south: Double, west: Double, north: Double, east: Double) -> [String: String] {
        var problems: [String: String] = [:]
        for (field, value, limit) in [("south", south, 90.0), ("north", north, 90), ("west", west, 180), ("east", east, 180)]
        where !(-limit...limit).contains(value) {
            problems[field] = "must be in \(-limit)...\(limit)"
        }
        return problems
    }

    /// 400 naming each edge outside its documented range.
    public static func check(south: Double, west: Double, north: Double, east: Double) throws {
        let problems = problems(south: south, west: west, north: north, east: east)
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
    }
}
