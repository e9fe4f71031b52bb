import Foundation

/// Publishes a news item an admin wrote (A6); everyone lists it from then on, newest first by when it happened.
struct PublishNews: Sendable {
    let news: any NewsPublishing

    func callAsFunction(_ draft: NewsDraft, by admin: String) async throws -> NewsStore.Item {
        try await news.publish(draft, by: admin)
    }
}
