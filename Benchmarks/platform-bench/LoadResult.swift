import Foundation

/// Requests per second and latency percentiles from a wrk run (Debian's wrk, a second process on loopback).
struct LoadResult: Sendable {
    var requestsPerSecond: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    var non2xx: Int

    /// With `bearerTokens`, each request carries the next token of the list (many users, as in production).
    /// `post`: the same JSON body POSTed on every request, with `headers` (a telemetry batch and its app key).
    static func wrk(
        url: String, seconds: Int, connections: Int, bearerTokens: [String] = [], post: (body: String, headers: [String: String])? = nil
    ) throws -> LoadResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/wrk")
        var arguments = ["-t", "\(min(2, connections))", "-c", "\(connections)", "-d", "\(seconds)s", "--latency"]
        var script: URL?
        if let post {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wrk-\(UUID().uuidString).lua")
            let headers = (post.headers.merging(["Content-Type": "application/json"]) { $1 })
                .map { "wrk.headers[\"\($0.key)\"] = \"\($0.value)\"" }.joined(separator: "\n")
            // The body as a Lua long string: JSON has no "]]" here.
            try """
            wrk.method = "POST"
            wrk.body = [[\(post.body)]]
            \(headers)
            """.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["-s", file.path]
            script = file
        } else if !bearerTokens.isEmpty {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("wrk-\(UUID().uuidString).lua")
            let list = bearerTokens.map { "\"\($0)\"" }.joined(separator: ",\n")
            try """
            local tokens = {\(list)}
            local requests = {}
            local i = 0
            -- Formatted once per thread, so the client spends no more per request than on a plain URL.
            init = function(args)
              for n, token in ipairs(tokens) do
                requests[n] = wrk.format(nil, nil, { ["Authorization"] = "Bearer " .. token })
              end
            end
            request = function()
              i = i + 1
              return requests[(i % #requests) + 1]
            end
            """.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["-s", file.path]
            script = file
        }
        defer { script.map { try? FileManager.default.removeItem(at: $0) } }
        process.arguments = arguments + [url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, let rate = value(after: "Requests/sec:", in: text) else { throw BenchError("wrk failed:\n\(text)") }
        return LoadResult(
            requestsPerSecond: rate, p50Milliseconds: latency(percentile: "50%", in: text) ?? .nan,
            p99Milliseconds: latency(percentile: "99%", in: text) ?? .nan,
            non2xx: Int(value(after: "Non-2xx or 3xx responses:", in: text) ?? 0))
    }

    private static func value(after label: String, in text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.contains(label) }) else { return nil }
        return Double(line.replacingOccurrences(of: label, with: "").trimmingCharacters(in: .whitespaces))
    }

    /// wrk prints `99%    4.21ms` (or `us`, `s`).
    private static func latency(percentile: String, in text: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(percentile) }),
            let token = line.split(separator: " ").last
        else { return nil }
        let units: [(String, Double)] = [("us", 0.001), ("ms", 1), ("s", 1_000)]
        for (suffix, scale) in units where token.hasSuffix(suffix) {
            return Double(token.dropLast(suffix.count)).map { $0 * scale }
        }
        return nil
    }
}
