import Foundation

/// The bench's output: one row per measurement, with the reference client's figure and the ratio where there is one.
struct ResultTable {
    private var rows: [(name: String, swift: String, reference: String, ratio: String, target: String)] = []

    var isEmpty: Bool { rows.isEmpty }

    mutating func add(_ name: String, swift: Double, reference: Double?, target: String) {
        rows.append(
            (name, format(swift), reference.map { format($0) } ?? "-", reference.map { String(format: "%.2f", swift / $0) } ?? "-", target))
    }

    /// A row whose figures are already written out (latencies, pairs); `ratio` compares it with `reference`.
    mutating func add(_ name: String, text: String, reference: String = "-", ratio: Double? = nil, target: String) {
        rows.append((name, text, reference, ratio.map { String(format: "%.2f", $0) } ?? "-", target))
    }

    /// A latency row: `measured`'s p50 / p99 next to `reference`'s (the same process's `/health`).
    mutating func addLatency(_ name: String, _ measured: LoadResult, reference: LoadResult) {
        let percentiles = { (load: LoadResult) in String(format: "%.2f / %.2f", load.p50Milliseconds, load.p99Milliseconds) }
        add(name, text: percentiles(measured), reference: percentiles(reference), target: "-")
    }

    func markdown(count: Int, size: Int) -> String {
        var lines = [
            "| measurement (Kafka rows: \(count) messages of \(size) B) | measured | reference | ratio | target |",
            "|---|---:|---:|---:|---|",
        ]
        for row in rows {
            lines.append("| \(row.name) | \(row.swift) | \(row.reference) | \(row.ratio) | \(row.target) |")
        }
        return lines.joined(separator: "\n")
    }

    func format(_ value: Double) -> String {
        let rounded = Int(value.rounded())
        var digits = String(rounded)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits = String(digits.dropLast(3))
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: ",")
    }
}
