import Foundation

/// What publishing news (A6) needs from storage: `NewsStore` in Postgres, a memory one in the unit tests.
package protocol NewsPublishing: Sendable {
    func publish(_ draft: NewsDraft, by admin: String) async throws -> NewsItem
}
