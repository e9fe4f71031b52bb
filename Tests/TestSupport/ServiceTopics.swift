/// The topics a service under test reads and writes: each setting that names a topic gets a name of its own on
/// the shared test broker, so tests running at once never see each other's events.
public struct ServiceTopics: Sendable {
    /// Each topic setting with the topic it names (`WEATHER_FORECASTS_TOPIC` → `test.forecasts.<suffix>`).
    public private(set) var byVariable: [String: String]

    /// `settings`: each topic setting with a short name for its topic (`"WEATHER_FORECASTS_TOPIC": "forecasts"`);
    /// settings of two services that share a short name share the topic (one produces, the other consumes).
    /// `prefix`: `test`, or `bench` for the benches' topics.
    public init(_ settings: [String: String], prefix: String = "test") {
        let suffix = uniqueSuffix()
        byVariable = settings.mapValues { "\(prefix).\($0).\(suffix)" }
    }

    /// The topic `setting` names; a setting the harness did not declare is a mistake in the test, named in what
    /// it returns so the service's refusal of it says which.
    public subscript(_ setting: String) -> String { byVariable[setting] ?? "undeclared-topic-setting.\(setting)" }

    /// These topics, with any a test named itself in `environment` instead.
    public func overridden(by environment: [String: String]) -> ServiceTopics {
        var topics = self
        for setting in byVariable.keys { if let own = environment[setting] { topics.byVariable[setting] = own } }
        return topics
    }

    /// Creates the topics (and their dead-letter topics) on the test broker.
    public func create(partitions: Int, brokers: String = TestInfrastructure.current.kafkaBrokers) async throws {
        let names = Set(byVariable.values).sorted()
        // In threes at most: Tansu answers a four-topic CreateTopics with a response librdkafka cannot parse.
        for start in stride(from: 0, to: names.count, by: 3) {
            try await createTopics(Array(names[start..<min(start + 3, names.count)]), partitions: partitions, brokers: brokers)
        }
    }
}
