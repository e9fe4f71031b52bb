import Foundation

/// Files of this repository the tests read as they are checked in (the services' API documents).
public enum RepositoryFiles {
    /// The repository's root, found from this file's place in it (`Tests/UnitTestSupport/`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `Services/`, one folder per service.
    public static let services = root.appendingPathComponent("Services")

    /// A service's checked-in `openapi.yaml`, by executable name (`places-importer`).
    public static func openAPIDocument(of service: String) -> URL {
        services.appendingPathComponent(service).appendingPathComponent("openapi.yaml")
    }
}
