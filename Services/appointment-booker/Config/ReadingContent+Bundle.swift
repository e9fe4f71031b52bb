import AppointmentBookerCore
import Foundation

/// The readings' texts as the service ships them: the `Content` directory of its bundle.
extension ReadingContent {
    /// The content from the service's bundle.
    static func bundled() throws -> ReadingContent {
        try load(from: try bundledDirectory())
    }

    /// The service bundle's `Content` directory (the texts, and the share pages' card image).
    static func bundledDirectory() throws -> URL {
        guard let directory = Bundle.module.url(forResource: "Content", withExtension: nil) else {
            throw Incomplete(description: "the Content directory is missing from the bundle")
        }
        return directory
    }
}
