/// The bench's output: one row per measurement, with the reference client's figure and the ratio where there is one.
struct ResultTable {
    private var rows: [(name: String, swift: Double, reference: Double?, target: String)] = []

    mutating func add(_ name: String, swift: Double, reference: Double?, target: String) {
        rows.append((name, swift, reference, target))
    }

    func markdown(count: Int, size: Int) -> String {
        var lines = [
            "| measurement (\(count) messages of \(size) B) | Shared (Swift) | rdkafka_performance | ratio | target |",
            "|---|---:|---:|---:|---|",
        ]
        for row in rows {
            let reference = row.reference.map { format($0) } ?? "-"
            let ratio = row.reference.map { String(format: "%.2f", row.swift / $0) } ?? "-"
            lines.append("| \(row.name) | \(format(row.swift)) | \(reference) | \(ratio) | \(row.target) |")
        }
        return lines.joined(separator: "\n")
    }

    private func format(_ value: Double) -> String {
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

import Foundation
