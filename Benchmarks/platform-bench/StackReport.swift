import Foundation
import PlatformCore

/// The stack bench's Markdown: one row per rate step, then each process's CPU and memory idle and at the highest
/// sustained step, then each consumer group's lag.
struct StackReport {
    let bench: StackBench
    let results: StackBench.Results

    func markdown() -> String {
        var lines = [
            "## Whole stack, open loop", "",
            "Each session, for one of \(bench.users) phones (an install account per app from auth): "
                + StackSession.steps.dropLast().joined(separator: ", ") + " (3 events); one session in \(bench.bookingEvery) also books "
                + "the fortune teller's next free hourly slot. \(bench.cityCount) cities, 20 points in one 0.1° tile of places. "
                + "Sessions start at a fixed rate whatever the answers; a session's first request is timed from its intended start. "
                + "A step holds when no request fails and every journey step's p99 is at most \(Int(bench.p99LimitMilliseconds)) ms.", "",
        ]
        let names = StackSession.steps + [OpenLoopLoad.sessionName]
        lines.append(
            "| offered (sessions/s) | achieved | sessions | failed requests | " + names.map { "\($0) p50 / p99 (ms)" }.joined(separator: " | ") + " |"
        )
        lines.append("|---:|---:|---:|---:|" + names.map { _ in "---:|" }.joined())
        for (index, step) in results.steps.enumerated() {
            let cells = names.map { name in
                guard let p50 = step.p(name, 0.5), let p99 = step.p(name, 0.99) else { return "-" }
                return String(format: "%.1f / %.1f", p50, p99)
            }
            let held = index == results.sustained ? " (highest held)" : ""
            lines.append(
                "| \(step.rate)\(held) | \(String(format: "%.1f", step.achieved)) | \(step.completed) of \(step.started) | \(step.errorCount) | "
                    + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        if let sustained = results.sustained {
            lines.append("**Highest sustained: \(results.steps[sustained].rate) sessions/s.**")
        } else {
            lines.append("**No step held.**")
        }
        lines.append(
            results.stopReason.isEmpty ? "Every step held: the rates given ended first." : "Stopped at \(results.stopReason)")
        lines.append("")
        lines += processTable()
        lines.append("")
        lines.append("| consumer group | lag after the highest sustained step (messages) | lag at the end (messages) |")
        lines.append("|---|---:|---:|")
        for group in Set(results.lagAfterSustained.keys).union(results.lagAtEnd.keys).sorted() {
            let after = results.lagAfterSustained[group].map(String.init) ?? "-"
            lines.append("| \(group) | \(after) | \(results.lagAtEnd[group].map(String.init) ?? "-") |")
        }
        if !results.notes.isEmpty {
            lines.append("")
            lines += results.notes.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// CPU as a share of one core over the idle window and over the highest sustained step, CPU per session there,
    /// RSS idle and after that step.
    private func processTable() -> [String] {
        let rate = results.sustained.map { "\(results.steps[$0].rate)/s" } ?? "-"
        var lines = [
            "| process | CPU idle (% of a core) | CPU at \(rate) (% of a core) | CPU per session at \(rate), all / above idle (ms) "
                + "| RSS idle (MiB) | RSS at \(rate) (MiB) |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for name in StackProcesses.serviceNames + StackProcesses.others {
            let idleShare = share(from: results.idleWindow[name], to: results.idle[name])
            var loadedShare = "-"
            var perSession = "-"
            var loadedRSS = "-"
            if let index = results.sustained, let before = results.before[index][name], let after = results.after[index][name] {
                loadedShare = share(from: before, to: after)
                let sessions = results.steps[index].completed
                if sessions > 0 {
                    let used = after.cpuSeconds - before.cpuSeconds
                    // What the process would have used idle over the same time (its background loops).
                    let idle = idleRate(name) * (after.at - before.at).seconds
                    perSession = String(format: "%.2f / %.2f", used * 1_000 / Double(sessions), (used - idle) * 1_000 / Double(sessions))
                }
                loadedRSS = mebibytes(after.rssKiB)
            }
            lines.append("| \(name) | \(idleShare) | \(loadedShare) | \(perSession) | \(mebibytes(results.idle[name]?.rssKiB)) | \(loadedRSS) |")
        }
        return lines
    }

    /// CPU seconds per second over the idle window.
    private func idleRate(_ name: String) -> Double {
        guard let start = results.idleWindow[name], let end = results.idle[name] else { return 0 }
        let seconds = (end.at - start.at).seconds
        return seconds > 0 ? (end.cpuSeconds - start.cpuSeconds) / seconds : 0
    }

    private func share(from start: StackProcesses.Sample?, to end: StackProcesses.Sample?) -> String {
        guard let start, let end else { return "-" }
        let seconds = (end.at - start.at).seconds
        guard seconds > 0 else { return "-" }
        return String(format: "%.1f", (end.cpuSeconds - start.cpuSeconds) / seconds * 100)
    }

    private func mebibytes(_ kib: Int?) -> String {
        kib.map { String(format: "%.1f", Double($0) / 1_024) } ?? "-"
    }
}
