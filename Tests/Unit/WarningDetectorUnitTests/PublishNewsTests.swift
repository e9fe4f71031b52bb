import Foundation
import Synchronization
import Testing

@testable import WarningDetector

/// Publishing news (A6) over a store in memory: the draft is published as written, by the admin who wrote it.
@Suite("warning-detector: PublishNews")
struct PublishNewsTests {
    final class MemoryNews: NewsPublishing {
        let published = Mutex<[(NewsItem, String)]>([])

        func publish(_ draft: NewsDraft, by admin: String) async throws -> NewsItem {
            let item = NewsItem(
                id: UUID(), name: draft.name, body: draft.body, happenedAt: draft.happenedAt, timeZone: draft.timeZone,
                location: draft.location, publishedAt: Date())
            published.withLock { $0.append((item, admin)) }
            return item
        }
    }

    @Test("A6: an admin's draft is published as written, and the published item is answered")
    func publishesDraft() async throws {
        let news = MemoryNews()
        let draft = NewsDraft(
            name: "Flood in the north", body: "Roads are closed.", location: "Chiang Mai", timeZone: "Asia/Bangkok",
            happenedAt: Date(timeIntervalSince1970: 1_795_444_200))
        let item = try await PublishNews(news: news)(draft, by: "admin-1")
        #expect(item.name == draft.name && item.body == draft.body && item.location == draft.location)
        #expect(item.timeZone == draft.timeZone && item.happenedAt == draft.happenedAt)
        #expect(news.published.withLock { $0.map { $0.1 } } == ["admin-1"])
    }
}
