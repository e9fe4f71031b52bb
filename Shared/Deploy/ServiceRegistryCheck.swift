import Foundation
import PlatformEvents

/// Holds the files that list the services to the registry (`ServiceIdentity.all`): each must name every service,
/// with its port and schema where the file sets them and its required settings where the file starts it, and the
/// files rendered from it (`renderedFiles`, written by
/// `platformctl render-services`) must be current. A service added to the registry and nowhere else makes the check
/// list every file to update; `platformctl check-services` runs it in the test command. It also holds the registry
/// to the topic catalogue: no service scales beyond the partitions of a topic it consumes (`replicaProblems`).
public struct ServiceRegistryCheck: Sendable {
    /// The repository's root.
    public let root: URL
    public let services: [ServiceIdentity]

    public init(root: URL, services: [ServiceIdentity] = ServiceIdentity.all) {
        self.root = root
        self.services = services
    }

    /// One thing a file must say of a service.
    struct Rule: Sendable {
        let file: String
        let says: String
        let holds: @Sendable (_ text: String) -> Bool
    }

    /// Files that run, deploy, watch or document every service, by what each must name of a service.
    static func rules(for service: ServiceIdentity) -> [Rule] {
        let (name, schema, port) = (service.name, service.schema, service.defaultPort)
        let namesIt: @Sendable (String) -> Bool = { mentions(name, in: $0) }
        var rules = [
            "Package.swift", "Dockerfile", "deploy/k8s/kustomization.yaml", "deploy/kafka/kafka-users.yaml", "deploy/observability/podmonitor.yaml",
            "scripts/dashboards.py",
            "scripts/compose-smoke.py", "scripts/journeys-on-stack.sh", "scripts/stack_broker_fault.py", "scripts/validate_deploy.py",
            "docs/architecture.md", "docs/operations.md",
        ].map { Rule(file: $0, says: "names \(name)", holds: namesIt) }
        rules += [
            Rule(file: "Services/\(name)/openapi.yaml", says: "exists (its API)", holds: { _ in true }),
            Rule(file: "Services/\(name)/README.md", says: "exists (its rules, events and settings)", holds: { _ in true }),
            Rule(file: "deploy/k8s/\(name).yaml", says: "runs \(name) with role \(schema)") {
                $0.contains("command: [\"\(name)\"]") && $0.contains("value: \(schema)")
            },
            Rule(file: "deploy/k8s/\(name).yaml", says: "caps its autoscaler at the registry's \(service.maxReplicas) replicas") {
                $0.contains("maxReplicas: \(service.maxReplicas)\n")
            },
            Rule(file: "deploy/k8s/kustomization.yaml", says: "lists \(name).yaml") { $0.contains("- \(name).yaml") },
            Rule(file: "deploy/k8s/platform-config.yaml", says: "names the secret \(name)-db") { $0.contains("\(name)-db") },
            Rule(file: "docker-compose.yml", says: "runs \(name) with role \(schema) on port \(port)") {
                $0.contains("command: [\"\(name)\"]") && $0.contains("POSTGRES_USER: \(schema)") && $0.contains("\"\(port):8080\"")
            },
            Rule(file: "scripts/stack.sh", says: "starts \(name) on port \(port)") { stackStarts(name, port: port, in: $0) },
            Rule(file: "README.md", says: "has a row for \(name) with \(schema) and \(port)") { text in
                text.split(separator: "\n").contains { $0.hasPrefix("| [`\(name)`]") && $0.contains("`\(schema)`") && $0.contains("\(port)") }
            },
        ]
        for setting in service.allRequiredSettings {
            rules += [
                Rule(file: "docker-compose.yml", says: "requires \(setting) (`${\(setting):?...}`)") { $0.contains("\(setting): ${\(setting):?") },
                Rule(file: "deploy/k8s/\(name).yaml", says: "sets \(setting)") { mentions(setting, in: $0) },
                // The stack exports what `platformctl required-settings` names from what `generate-keys` wrote.
                Rule(file: "Tools/platformctl/GenerateKeys.swift", says: "generates \(setting) for the stack") { mentions(setting, in: $0) },
            ]
        }
        return rules
    }

    /// Where the service's replicas outnumber the partitions of a topic it consumes, one line each: its replicas
    /// share one consumer group, so those beyond the partitions hold none and go not-ready (after
    /// `KAFKA_UNASSIGNED_READY_LIMIT_MS`). Lower `maxReplicas` or raise the topic's partitions (on the broker first).
    static func replicaProblems(for service: ServiceIdentity) -> [String] {
        service.consumes.filter { $0.partitions < service.maxReplicas }.map { topic in
            "Shared/Events/ServiceIdentity.swift: \(service.name) scales to \(service.maxReplicas) replicas, more than the "
                + "\(topic.partitions) partitions of \(topic.name) it consumes (the replicas beyond them would go not-ready)"
        }
    }

    /// The files rendered from the registry, by what they must hold.
    public func renderedFiles() -> [(path: String, text: String)] {
        [
            (DatabaseBootstrap.path, DatabaseBootstrap.sql(for: services)),
            ("deploy/kafka/kafka-users.yaml", KafkaAccessList.strimziUsers(services: services.map(\.name))),
        ] + KedaOverlays.files(for: services)
    }

    /// Files that run a rendered file, by what they must say.
    static let renderedFileUsers: [Rule] = [
        Rule(file: "scripts/stack.sh", says: "runs \(DatabaseBootstrap.path)") { $0.contains(DatabaseBootstrap.path) },
        Rule(file: "scripts/stack.sh", says: "exports what `platformctl required-settings` names") { $0.contains("required-settings \"$service\"") },
        Rule(file: "deploy/postgres/init.sh", says: "runs the mounted bootstrap.sql") { $0.contains("/platform/bootstrap.sql") },
        Rule(file: "docker-compose.yml", says: "mounts \(DatabaseBootstrap.path)") {
            $0.contains("./\(DatabaseBootstrap.path):/platform/bootstrap.sql")
        },
    ]

    /// What a file fails to say, one line each (`file: does not …`); empty when every file holds to the registry.
    public func problems() -> [String] {
        var texts: [String: String] = [:]
        var unreadable: Set<String> = []
        /// Each file is read once, whichever rules and rendered files need it.
        func text(of file: String) -> String? {
            if let known = texts[file] { return known }
            guard !unreadable.contains(file), let read = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else {
                unreadable.insert(file)
                return nil
            }
            texts[file] = read
            return read
        }
        var problems: [String] = []
        for service in services {
            problems += Self.replicaProblems(for: service)
            for rule in Self.rules(for: service) {
                guard let text = text(of: rule.file) else {
                    problems.append("\(rule.file): missing (\(service.name): it \(rule.says))")
                    continue
                }
                if !rule.holds(text) { problems.append("\(rule.file): does not say that it \(rule.says)") }
            }
        }
        for rule in Self.renderedFileUsers where !(text(of: rule.file).map(rule.holds) ?? false) {
            problems.append("\(rule.file): does not say that it \(rule.says)")
        }
        for (path, rendered) in renderedFiles() where text(of: path) != rendered {
            problems.append("\(path): stale (run `platformctl render-services`)")
        }
        return problems
    }

    /// How many files the rules read.
    public var fileCount: Int {
        Set(services.flatMap { Self.rules(for: $0).map(\.file) } + Self.renderedFileUsers.map(\.file) + renderedFiles().map(\.path)).count
    }

    /// Whether `word` stands in `text` on its own (not inside a longer name: `auth` is not in `authorization`).
    static func mentions(_ word: String, in text: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: word, range: searchRange) {
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !isNamePart(before) && !isNamePart(after) { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    private static func isNamePart(_ character: Character?) -> Bool {
        guard let character else { return false }
        return character.isLetter || character.isNumber || character == "_" || character == "-"
    }

    /// The stack script's `SERVICES=(…)` holds the service at the place its default port list holds the port.
    static func stackStarts(_ name: String, port: Int, in text: String) -> Bool {
        guard let services = list(after: "SERVICES=(", closing: ")", in: text, separator: " "),
            let ports = list(after: "STACK_SERVICE_PORTS:-", closing: "}", in: text, separator: ","),
            let index = services.firstIndex(of: name)
        else { return false }
        return ports.indices.contains(index) && ports[index] == "\(port)"
    }

    private static func list(after opening: String, closing: Character, in text: String, separator: Character) -> [String]? {
        guard let start = text.range(of: opening)?.upperBound else { return nil }
        guard let end = text[start...].firstIndex(of: closing) else { return nil }
        return text[start..<end].split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
