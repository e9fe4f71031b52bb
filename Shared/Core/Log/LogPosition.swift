/// A place in the log: where a consumed event sat (a rebuild tallies what it read), or where a group is to
/// resume (`platformctl rewind`).
public struct LogPosition: Sendable, Hashable {
    public let topic: String
    public let partition: Int32
    public let offset: Int64

    public init(topic: String, partition: Int32, offset: Int64) {
        self.topic = topic
        self.partition = partition
        self.offset = offset
    }
}
