/// Where shared texts are kept for their public pages (W10); `SharedTextStore` in Postgres.
package protocol SharedTexts: Sendable {
    /// Keeps `text` and answers the id of its page.
    func keep(cityId: Int, kind: String, text: String) async throws -> String
}
