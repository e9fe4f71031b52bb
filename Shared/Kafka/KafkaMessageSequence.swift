/// The pull-based message stream of a `KafkaConsumer`.
public struct KafkaMessageSequence: AsyncSequence, Sendable {
    public typealias Element = KafkaMessage
    let consumer: KafkaConsumer

    public struct AsyncIterator: AsyncIteratorProtocol {
        let consumer: KafkaConsumer
        var buffer: [KafkaMessage] = []
        var position = 0

        public mutating func next() async throws -> KafkaMessage? {
            while position >= buffer.count {
                if Task.isCancelled || consumer.isClosedForReading { return nil }
                buffer = try await consumer.poll()
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(consumer: consumer) }
}
