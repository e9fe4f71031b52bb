import Foundation
import Hummingbird

/// A service's `openapi.yaml` as it is served, byte for byte, at `/openapi.yaml` (X3), and the methods each
/// of its paths answers, for `MethodNotAllowedMiddleware`.
public struct OpenAPIDocument: Sendable {
    public let bytes: [UInt8]
    /// Path templates (`/v1/places/{placeId}`) with their methods, in document order.
    public let operations: [(template: String, methods: [HTTPRequest.Method])]

    public init(bytes: [UInt8]) {
        self.bytes = bytes
        operations = Self.operations(in: String(decoding: bytes, as: UTF8.self))
    }

    /// Reads the document from a resource bundle (`Bundle.module` of the service).
    public init(resource name: String = "openapi", in bundle: Bundle) throws {
        guard let url = bundle.url(forResource: name, withExtension: "yaml") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(name).yaml in \(bundle.bundlePath)"])
        }
        self.init(bytes: Array(try Data(contentsOf: url)))
    }

    /// Each operation's `x-access` (X3): the line at six spaces under an operation. Throws
    /// `OperationAccess.UnknownRule` for a rule the platform does not know.
    public func operationAccess() throws(OperationAccess.UnknownRule) -> OperationAccess {
        var rules: [(method: HTTPRequest.Method, template: String, rule: OperationAccess.Rule)] = []
        for entry in Self.pathEntries(in: String(decoding: bytes, as: UTF8.self)) {
            guard case .access(let template, let method, let text) = entry else { continue }
            guard let rule = OperationAccess.Rule(rawValue: text) else {
                throw OperationAccess.UnknownRule(operation: "\(method.rawValue) \(template)", rule: text)
            }
            rules.append((method, template, rule))
        }
        return OperationAccess(rules: rules)
    }

    /// Serves the document at `GET /openapi.yaml`.
    public func addRoute(to router: Router<PlatformRequestContext>) {
        let body = ByteBuffer(bytes: bytes)
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: body))
        }
    }

    static let methodNames: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]

    /// The paths and methods of a document. `OpenAPIDocumentTests` checks the result against PyYAML's reading of every
    /// document.
    static func operations(in text: String) -> [(template: String, methods: [HTTPRequest.Method])] {
        var result: [(String, [HTTPRequest.Method])] = []
        for entry in pathEntries(in: text) {
            switch entry {
            case .path(let template): result.append((template, []))
            case .operation(_, let method): result[result.count - 1].1.append(method)
            case .access: continue
            }
        }
        return result
    }

    /// What `paths:` holds, in the block style the services' documents are written in: a path at two spaces, its
    /// operations at four, an operation's `x-access` at six.
    enum PathEntry {
        case path(String)
        case operation(template: String, method: HTTPRequest.Method)
        case access(template: String, method: HTTPRequest.Method, rule: String)
    }

    static func pathEntries(in text: String) -> [PathEntry] {
        var entries: [PathEntry] = []
        var inPaths = false
        var template: String?
        var method: HTTPRequest.Method?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line.hasPrefix("paths:")
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), !line.hasPrefix("   "), line.hasSuffix(":") {
                let path = String(line.dropFirst(2).dropLast())
                (template, method) = (path, nil)
                entries.append(.path(path))
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":"), let template {
                let name = String(line.dropFirst(4).dropLast())
                method = methodNames.contains(name) ? HTTPRequest.Method(name.uppercased()) : nil
                if let method { entries.append(.operation(template: template, method: method)) }
            } else if line.hasPrefix("      x-access:"), let template, let method {
                let rule = line.dropFirst("      x-access:".count).trimmingCharacters(in: .whitespaces)
                entries.append(.access(template: template, method: method, rule: rule))
            }
        }
        return entries
    }
}
