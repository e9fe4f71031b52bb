/// A topic to create, with its partition count and topic configuration (`retention.ms`, say).
public struct KafkaTopicSpec: Sendable, Hashable {
    public var name: String
    public var partitions: Int
    public var configs: [String: String]

    public init(name: String, partitions: Int, configs: [String: String] = [:]) {
        self.name = name
        self.partitions = partitions
        self.configs = configs
    }
}
