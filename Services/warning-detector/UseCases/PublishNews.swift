import Foundation

/// Publishes a news item an admin wrote (A6); everyone lists it from then on, newest first by when it happened.
package struct PublishNews: Sendable {
    package let news: any NewsPublishing

    package init(news: any NewsPublishing) {
        self.news = news
    }

    package func callAsFunction(_ draft: NewsDraft, by admin: String) async throws -> NewsItem {
        try await news.publish(draft, by: admin)
    }
}
