import Foundation
import TestSupport
import Testing

/// A fault in one of librdkafka's threads must reach the crash reporter. librdkafka blocks every signal in its
/// threads, and a blocked SIGSEGV makes the kernel kill the process with no report and no log line: that is
/// how a librdkafka bug (see scripts/patches) first showed itself, as services dying silently.
@Suite("Kafka client threads and signals")
struct KafkaThreadSignalTests {
    @Test("X4: librdkafka's threads take fault signals, so a crash in them is reported; SIGTERM stays blocked there")
    func librdkafkaThreadsTakeFaultSignals() async throws {
        try await withProducer(brokers: "127.0.0.1:\(freePort())") { _ in
            var masks = Self.blockedSignalsOfKafkaThreads()
            for _ in 0..<100 where masks.isEmpty {
                try await Task.sleep(for: .milliseconds(100))
                masks = Self.blockedSignalsOfKafkaThreads()
            }
            #expect(!masks.isEmpty, "no thread named rdk:… found")
            // librdkafka names a thread before its start interceptor unblocks the fault signals, and other tests
            // start clients meanwhile: a snapshot that caught a thread in that moment is taken again (a thread that
            // never takes the signals fails every time).
            for _ in 0..<20 where masks.values.contains(where: { $0 & Self.faultSignals != 0 }) {
                try await Task.sleep(for: .milliseconds(100))
                masks = Self.blockedSignalsOfKafkaThreads()
            }
            for (thread, blocked) in masks {
                #expect(blocked & Self.bit(SIGSEGV) == 0, "\(thread) blocks SIGSEGV")
                #expect(blocked & Self.bit(SIGBUS) == 0, "\(thread) blocks SIGBUS")
                #expect(blocked & Self.bit(SIGABRT) == 0, "\(thread) blocks SIGABRT")
                #expect(blocked & Self.bit(SIGTERM) != 0, "\(thread) takes SIGTERM, which belongs to the service's own threads")
            }
        }
    }

    static func bit(_ signal: Int32) -> UInt64 { 1 << UInt64(signal - 1) }
    static let faultSignals = bit(SIGSEGV) | bit(SIGBUS) | bit(SIGABRT)

    /// The blocked-signal mask of each thread of this process that librdkafka named ("rdk:main", "rdk:broker…").
    static func blockedSignalsOfKafkaThreads() -> [String: UInt64] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var masks: [String: UInt64] = [:]
        for task in tasks {
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                name.hasPrefix("rdk:"),
                let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
                let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
            else { continue }
            masks["\(name.trimmingCharacters(in: .whitespacesAndNewlines)) (\(task))"] = mask
        }
        return masks
    }
}
