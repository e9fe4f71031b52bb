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
}
