import CRdKafka
import Logging
import Synchronization

/// State the rebalance callback needs: where to start newly assigned partitions and which are assigned now.
/// It is passed to librdkafka as the client opaque and read only on the consumer's own thread or under its lock.
final class RebalanceContext: Sendable {
    struct PartitionID: Hashable, Sendable {
        var topic: String
        var partition: Int32
    }

    let startPosition: KafkaStartPosition
    /// Batches the reader is applying; a revoke waits for those of its partitions.
    let inHand: PartitionsInHand
    /// Assignments and revocations are logged: a member that never receives partitions is otherwise silent.
    private let group: String
    private let logger: Logger
    private let state = Mutex<(assigned: Set<PartitionID>, rewound: Set<PartitionID>, joined: Bool)>(([], [], false))
    /// Partitions revoked since the poll loop last looked: what it fetched of them before the revoke is dropped.
    private let revokedUnseen = Mutex<Set<PartitionID>>([])

    init(
        startPosition: KafkaStartPosition, group: String, logger: Logger, inHand: PartitionsInHand, rewound: Set<PartitionID> = []
    ) {
        self.startPosition = startPosition
        self.inHand = inHand
        self.group = group
        self.logger = logger
        state.withLock { $0.rewound = rewound }
    }

    var assignedPartitions: Set<PartitionID> { state.withLock { $0.assigned } }

    /// Whether the group ever answered this member with an assignment (an empty one too): until then its first
    /// join is still under way.
    var hasJoined: Bool { state.withLock { $0.joined } }

    /// Partitions a replay already started from the beginning; a replacement client must not rewind them again.
    var rewoundPartitions: Set<PartitionID> { state.withLock { $0.rewound } }

    /// Partitions revoked since the last call. Called by the poll loop after each `rd_kafka_consumer_poll`: the
    /// messages of these partitions it collected before are stale (the next owner, or this member after a new
    /// assignment, reads them again from the committed offset), while a message the same call returned came after
    /// the revoke and belongs to the new assignment.
    func takeRevoked() -> Set<PartitionID> {
        revokedUnseen.withLock { revoked in
            defer { revoked = [] }
            return revoked
        }
    }

    /// Handles an assign or revoke from librdkafka (eager protocol). On revoke, it first waits until the reader
    /// finished the batch it is applying of those partitions (those queued behind it are dropped), then commits the
    /// stored offsets synchronously, so the partition's next owner starts right after what this consumer finished:
    /// nothing skipped, nothing twice.
    func rebalance(handle: OpaquePointer, code: rd_kafka_resp_err_t, partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        let ids = Self.ids(in: partitions)
        logger.info(
            code == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS ? "partitions assigned" : "partitions revoked",
            metadata: ["group": "\(group)", "partitions": "\(Self.summary(of: ids))"])
        if code == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS {
            if startPosition != .committed {
                rewindPartitionsSeenFirstTime(partitions)
            }
            state.withLock {
                $0.assigned.formUnion(ids)
                $0.joined = true
            }
            rd_kafka_assign(handle, partitions)
        } else {
            revokedUnseen.withLock { $0.formUnion(ids) }
            inHand.revoke(ids)
            _ = rd_kafka_commit(handle, nil, 0)
            state.withLock { $0.assigned.subtract(ids) }
            rd_kafka_assign(handle, nil)
        }
    }

    /// A replay reads each partition from its beginning once per consumer instance, whatever was committed.
    private func rewindPartitionsSeenFirstTime(_ partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) {
        state.withLock { state in
            for index in 0..<Int(partitions.pointee.cnt) {
                let element = partitions.pointee.elems.advanced(by: index)
                let id = PartitionID(topic: String(cString: element.pointee.topic), partition: element.pointee.partition)
                if state.rewound.insert(id).inserted {
                    element.pointee.offset = Int64(RD_KAFKA_OFFSET_BEGINNING)
                }
            }
        }
    }

    /// `topic[0,2]` per topic, sorted: short enough for one log line.
    static func summary(of ids: Set<PartitionID>) -> String {
        Dictionary(grouping: ids, by: \.topic).sorted { $0.key < $1.key }
            .map { topic, ids in "\(topic)\(ids.map(\.partition).sorted())" }.joined(separator: " ")
    }

    static func ids(in partitions: UnsafeMutablePointer<rd_kafka_topic_partition_list_t>) -> Set<PartitionID> {
        var ids: Set<PartitionID> = []
        for index in 0..<Int(partitions.pointee.cnt) {
            let element = partitions.pointee.elems[index]
            ids.insert(PartitionID(topic: String(cString: element.topic), partition: element.partition))
        }
        return ids
    }
}

/// librdkafka calls this from inside `rd_kafka_consumer_poll` or `rd_kafka_consumer_close`, i.e. on the consumer's
/// own dispatch queue. Handlers of this consumer may be running then (the event consumer polls while it applies);
/// a revoke waits for the batches they hold (`PartitionsInHand`).
let rebalanceCallback:
    @convention(c) (
        OpaquePointer?, rd_kafka_resp_err_t, UnsafeMutablePointer<rd_kafka_topic_partition_list_t>?, UnsafeMutableRawPointer?
    ) -> Void = { handle, code, partitions, opaque in
        guard let handle, let partitions, let opaque else { return }
        Unmanaged<RebalanceContext>.fromOpaque(opaque).takeUnretainedValue()
            .rebalance(handle: handle, code: code, partitions: partitions)
    }
