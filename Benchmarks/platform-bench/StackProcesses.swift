import Foundation
import NIOHTTP1
import TestSupport

/// The processes of the stack bench, read from /proc: the six services (children of compose-smoke.py, named by
/// their executable), the bench's Postgres (its postmaster and children, with what exited children used), its Tansu,
/// and the bench itself, which shares the two cores with them.
struct StackProcesses {
    struct Sample: Sendable {
        /// User plus system CPU seconds so far.
        var cpuSeconds: Double
        /// Resident memory in KiB; nil where a sum over processes would count shared memory more than once.
        var rssKiB: Int?
        var at: ContinuousClock.Instant
    }

    /// The service name of each service process.
    let services: [(name: String, pid: Int32)]
    let postgresPort: Int
    let brokerPort: Int

    static let serviceNames = ["weather-fetcher", "warning-detector", "places-importer", "auth", "analytics-aggregator", "appointment-booker"]
    static let others = ["postgres (all processes)", "tansu", "platform-bench (load generator)"]

    /// The services started by the compose-smoke.py process `stackPid`; fails unless all six are found.
    init(stackPid: Int32, postgresPort: Int, brokerPort: Int) throws {
        (self.postgresPort, self.brokerPort) = (postgresPort, brokerPort)
        let found = ProcessTable.children(of: stackPid).compactMap { pid -> (String, Int32)? in
            guard let name = Self.executableName(pid), Self.serviceNames.contains(name) else { return nil }
            return (name, pid)
        }
        services = Self.serviceNames.compactMap { name in found.first { $0.0 == name }.map { (name, $0.1) } }
        guard services.count == Self.serviceNames.count else {
            throw BenchError("found \(services.map(\.name)) among the stack's processes, not all six services")
        }
    }

    /// Every process's sample by name: the services, then `others`.
    func sample() -> [String: Sample] {
        let now = ContinuousClock.now
        var samples: [String: Sample] = [:]
        for (name, pid) in services {
            samples[name] = Sample(cpuSeconds: Self.cpuSeconds(pid) ?? 0, rssKiB: Self.rssKiB(pid), at: now)
        }
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
        // Other clusters and brokers may run on the machine: ours are the postmaster started with `-p postgresPort`
        // and its children, and the Tansu listening on `brokerPort`.
        let postmaster = all.first { Self.executableName($0) == "postgres" && Self.arguments($0).contains("\(postgresPort)") }
        let postgres = postmaster.map { master in [master] + all.filter { Self.parent($0) == master } } ?? []
        // The postmaster's cutime/cstime hold what its exited children (closed connections' backends) used.
        let exited = postmaster.flatMap { Self.cpuSeconds($0, children: true) } ?? 0
        let postgresCPU = postgres.compactMap { Self.cpuSeconds($0) }.reduce(0, +) + exited
        samples[Self.others[0]] = Sample(cpuSeconds: postgresCPU, rssKiB: nil, at: now)
        let tansu = all.filter { Self.executableName($0) == "tansu" && Self.arguments($0).contains { $0.hasSuffix(":\(brokerPort)") } }
        samples[Self.others[1]] = Sample(
            cpuSeconds: tansu.compactMap { Self.cpuSeconds($0) }.reduce(0, +), rssKiB: tansu.compactMap { Self.rssKiB($0) }.reduce(0, +), at: now)
        let me = getpid()
        samples[Self.others[2]] = Sample(cpuSeconds: Self.cpuSeconds(me) ?? 0, rssKiB: Self.rssKiB(me), at: now)
        return samples
    }

    /// Each consumer group's lag summed over its partitions: the `consumer_lag` gauges (high watermark from the
    /// fetch responses minus the consumer's position, recorded after each applied batch) on each service's
    /// `/metrics`, whose port is the `METRICS_PORT` in the process's environment.
    func consumerLag(http: StackHTTP) async -> [String: Int] {
        var lag: [String: Int] = [:]
        for (name, pid) in services {
            guard let port = Self.environment(pid)["METRICS_PORT"],
                let answer = try? await http.send(.GET, "http://127.0.0.1:\(port)/metrics"), answer.isSuccess
            else {
                lag["\(name) (metrics unreadable)"] = -1
                continue
            }
            for line in answer.body.split(separator: "\n") where line.hasPrefix("consumer_lag{") {
                guard let groupStart = line.range(of: #"group=""#), let groupEnd = line[groupStart.upperBound...].firstIndex(of: "\""),
                    let value = line.split(separator: " ").last.flatMap({ Double($0) })
                else { continue }
                lag[String(line[groupStart.upperBound..<groupEnd]), default: 0] += Int(value)
            }
        }
        return lag
    }

    static func executableName(_ pid: Int32) -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")).map { URL(fileURLWithPath: $0).lastPathComponent }
    }

    /// utime + stime (or, with `children`, cutime + cstime: the process's waited-for children) in seconds.
    static func cpuSeconds(_ pid: Int32, children: Bool = false) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        // After the command in parentheses: state (0), ppid, ..., utime (11), stime (12), cutime (13), cstime (14).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        let first = children ? 13 : 11
        guard fields.count > first + 1, let user = Double(fields[first]), let system = Double(fields[first + 1]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func parent(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// The command line's arguments.
    static func arguments(_ pid: Int32) -> [String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return [] }
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    static func rssKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }

    static func environment(_ pid: Int32) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return [:] }
        var values: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            values[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return values
    }
}
